import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startRegistry } from '../../src/composition/root.js';
import { testAccess } from '../../test/support/registry.js';

/**
 * The registry as `npm start` runs it (verify workers, writer thread, metrics, migrations at
 * start), but with the test credential (`Bearer test:<wallet>`) in place of API keys and
 * JWTs, so that the scale bench can read as any of its wallets. Prints `{url, startMs}`
 * once it listens; startMs runs from the process's start.
 */
const config = loadConfig({ ...process.env, PORT: '0' });
// Logs go to stderr: stdout carries the one line that says where the server listens.
const logger = pino({ level: config.logLevel }, pino.destination(2));
const registry = await startRegistry(config, { logger, overrides: [testAccess] });
process.stdout.write(`${JSON.stringify({ url: registry.url, startMs: Math.round(performance.now()) })}\n`);
process.on('SIGTERM', () => void registry.close().then(() => process.exit(0)));
