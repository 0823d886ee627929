import { pino } from 'pino';
import { createIdentity } from '../../src/adapters/identity-module.js';
import { loadConfig } from '../../src/config.js';
import { startRegistry } from '../../src/container.js';

/**
 * The registry as `npm start` runs it (real identity, token gate, metrics, logging at the
 * configured level), printing one JSON line `{url}` once it listens.
 */
const config = loadConfig({ ...process.env, PORT: '0' });
const logger = pino({ level: config.logLevel });
const registry = await startRegistry(config, {
  logger,
  identity: (database, clock, metrics) => createIdentity(config, database, clock, logger, metrics.registry),
});
process.stdout.write(`${JSON.stringify({ url: registry.url })}\n`);
process.on('SIGTERM', () => void registry.close().then(() => process.exit(0)));
