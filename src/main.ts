import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { startRegistry } from './composition/root.js';

/** Reads the configuration, starts the service, and stops it gracefully on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`proof-registry: ${err.message}`);
      process.exit(2);
    }
    throw err;
  }
  const logger = pino({ level: config.logLevel, base: { service: 'proof-registry' } });
  const registry = await startRegistry(config, { logger });
  logger.info({ url: registry.url, database: registry.database.dialect }, `proof registry listening on ${registry.url}`);

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down: finishing in-flight requests');
    registry.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  console.error('proof-registry: failed to start:', err instanceof Error ? err.message : err);
  process.exit(1);
});
