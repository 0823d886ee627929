import { pino } from 'pino';
import { startRegistry } from '../../src/composition/root.js';
import { loadConfig } from '../../src/config.js';
import { testAccess } from './registry.js';

/**
 * The registry in a process of its own, for tests that kill it (kill -9) or run two of it on
 * one database: configured from the environment, with the test credential; prints `{url}`
 * once it listens.
 */
const config = loadConfig({ ...process.env, PORT: '0', LOG_LEVEL: 'silent' });
const registry = await startRegistry(config, { logger: pino({ level: 'silent' }), overrides: [testAccess] });
process.stdout.write(`${JSON.stringify({ url: registry.url })}\n`);
process.on('SIGTERM', () => void registry.close().then(() => process.exit(0)));
