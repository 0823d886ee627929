import type { Container, ContainerModule } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { createHttpApp } from '../adapters/http/app.js';
import { descriptorLimit, effectiveMaxConnections, type ConnectionCounts, type ConnectionLimits } from '../adapters/http/connection-guard.js';
import type { AnyRoute } from '../adapters/http/route.js';
import { listen } from '../adapters/http/http-server.js';
import { databaseFailures } from '../adapters/sql/database-errors.js';
import { openDatabase, type Database } from '../adapters/sql/database.js';
import { migrateLatest } from '../adapters/sql/migrate.js';
import { lowerHelperThreads } from '../adapters/workers/thread-priority.js';
import type { Config } from '../config.js';
import { buildContainer, SLICES } from './container.js';
import { helperNice } from './core.module.js';
import { CORE } from './core.tokens.js';
import { IDENTITY } from './identity.tokens.js';
import { Lifecycle } from './lifecycle.js';
import { OPERATIONS } from './operations.tokens.js';
import { resolve } from './token.js';

export interface RegistryOptions {
  readonly logger: Logger;
  /** Modules loaded after the slices, rebinding any token: in-memory stores, a fixed clock, a test authenticator. */
  readonly overrides?: readonly ContainerModule[];
}

export interface RunningRegistry {
  readonly url: string;
  readonly container: Container;
  readonly database: Database;
  /** Open connections, and those refused by the connection caps. */
  readonly connections: ConnectionCounts;
  /** Graceful: stop accepting, finish in-flight requests, then stop workers, writers and timers, and close the database. */
  close(): Promise<void>;
}

/** A start-up failure, with the setting it came from (`DATABASE_URL: database "x" does not exist`). */
export class StartupError extends Error {
  constructor(
    readonly setting: string,
    override readonly cause: unknown,
  ) {
    super(`${setting}: ${cause instanceof Error ? cause.message : String(cause)}`);
  }
}

const naming =
  (setting: string) =>
  (err: unknown): never => {
    throw new StartupError(setting, err);
  };

/**
 * The one composition root: opens (and migrates) the database, loads every slice, makes what
 * their routes need, and listens. What started is stopped in the reverse order, on close or
 * when the start fails half-way.
 */
export async function startRegistry(config: Config, options: RegistryOptions): Promise<RunningRegistry> {
  const { logger } = options;
  const lifecycle = new Lifecycle(logger);
  const database = await openDatabase(config.databaseUrl, {
    readerPoolSize: config.databaseReadPoolSize,
    synchronous: config.sqliteSynchronous,
    onDriverWarning: (detail) => logger.warn({ detail }, 'database driver'),
  }).catch(naming('DATABASE_URL'));
  lifecycle.onStop(() => database.close());
  try {
    const applied = await migrateLatest(database).catch(naming('DATABASE_URL'));
    if (applied.length) logger.info({ migrations: applied }, 'database migrated');
    if (database.dialect === 'sqlite' && database.synchronous === 'normal') {
      logger.warn('SQLITE_SYNCHRONOUS=normal: commits are synced to disk only at checkpoints, so a power cut may lose proofs already acknowledged');
    }
    const container = buildContainer({ config, logger, database, lifecycle }, options.overrides);
    const app = await httpApp(container, config, logger);
    // Every thread that exists by now (libuv's pool, V8's helpers, the workers) below the event loop.
    const nice = helperNice(config);
    const lowered = lowerHelperThreads(nice);
    if (lowered > 0) logger.info({ threads: lowered, niceness: `+${nice}` }, 'helper threads run below the event loop');
    const server = await listen(app, config.port, config.host, undefined, connectionLimits(config, logger)).catch(naming('HOST and PORT'));
    return {
      url: server.url,
      container,
      database,
      connections: server.connections,
      close: async () => {
        lifecycle.beginClosing();
        await server.close(config.shutdownGraceMs);
        await lifecycle.stop();
      },
    };
  } catch (err) {
    await lifecycle.stop();
    throw err;
  }
}

/** The connection caps and deadlines, the global cap kept below the process's descriptor limit. */
function connectionLimits(config: Config, logger: Logger): ConnectionLimits {
  const descriptors = descriptorLimit();
  const maxConnections = effectiveMaxConnections(config.maxConnections, descriptors);
  if (maxConnections < config.maxConnections) {
    logger.warn(
      { configured: config.maxConnections, descriptors, applied: maxConnections },
      'MAX_CONNECTIONS is above what the open-file limit allows: capped below it',
    );
  }
  return {
    headersTimeoutMs: config.headersTimeoutS * 1000,
    requestTimeoutMs: config.requestTimeoutS * 1000,
    keepAliveTimeoutMs: config.keepAliveTimeoutS * 1000,
    maxConnections,
    maxConnectionsPerIp: config.maxConnectionsPerIp,
  };
}

/** Every slice's routes, in the slices' order, served with the identity slice's access rules; then their pages. */
async function httpApp(container: Container, config: Config, logger: Logger): Promise<Koa> {
  const catalog = await resolve(container, OPERATIONS.Catalog);
  const pages: Koa.Middleware[] = [];
  const apart: AnyRoute[] = [];
  for (const slice of SLICES) {
    const routes = await resolve(container, slice.routes);
    if (slice.documentedApart) apart.push(...routes);
    else catalog.add(routes);
    if (slice.pages) pages.push(await resolve(container, slice.pages));
  }
  return createHttpApp({
    routes: [...catalog.routes, ...apart],
    pages,
    access: await resolve(container, IDENTITY.Access),
    failures: databaseFailures,
    metrics: await resolve(container, CORE.Metrics),
    logger,
    bodyLimitBytes: config.bodyLimitBytes,
    bodyBounds: {
      largeBodySlots: config.largeBodyConcurrency,
      largeBodyQueue: config.largeBodyQueue,
      smallBodyBytes: 256 * 1024,
      maxValues: config.maxJsonValues,
    },
    readBounds: { slots: config.readConcurrency, queue: config.readQueue, queuePerWallet: config.readQueuePerWallet },
    trustProxyHops: config.trustProxy,
  });
}
