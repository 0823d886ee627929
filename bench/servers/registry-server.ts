import { pino } from 'pino';
import { loadConfig } from '../../src/config.js';
import { startRegistry } from '../../src/composition/root.js';

/**
 * The registry as `npm start` runs it (real identity, token gate, metrics, logging at the
 * configured level), printing one JSON line `{url}` once it listens.
 */
const config = loadConfig({ ...process.env, PORT: '0' });
const logger = pino({ level: config.logLevel });
const registry = await startRegistry(config, { logger });
process.stdout.write(`${JSON.stringify({ url: registry.url })}\n`);
process.on('SIGTERM', () => void registry.close().then(() => process.exit(0)));
