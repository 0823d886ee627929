import 'reflect-metadata';
import { availableParallelism } from 'node:os';
import { Container } from 'inversify';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Authenticator, Principal } from './application/ports/authenticator.js';
import type { BatchVerifier } from './application/ports/batch-verifier.js';
import type { ProofChecker } from './application/ports/proof-checker.js';
import type { Clock } from './application/ports/clock.js';
import type { ProofStore } from './application/ports/proof-store.js';
import type { RateLimiter } from './application/ports/rate-limiter.js';
import { ProofProtocol } from './application/proof-protocol.js';
import { GetProof } from './application/proofs/get-proof.js';
import { ScoreProof } from './application/proofs/score-proof.js';
import { SearchProofs } from './application/proofs/search-proofs.js';
import { VerifyBatch } from './application/proofs/verify-batch.js';
import { HashWasmBlake3 } from './adapters/crypto/hash-wasm-blake3.js';
import { selectEd25519 } from './adapters/crypto/select-ed25519.js';
import { createHttpApp } from './adapters/http/app.js';
import { HttpMetrics } from './adapters/http/http-metrics.js';
import { MeasuredProofChecker, MeasuredProofStore, MeasuredProofProtocol } from './adapters/http/measured-proof-protocol.js';
import { openApiDocument } from './adapters/http/openapi/openapi-document.js';
import type { AnyRoute } from './adapters/http/route.js';
import { opsRoutes } from './adapters/http/routes/ops-routes.js';
import { proofRoutes } from './adapters/http/routes/proof-routes.js';
import { openDatabase, type Database } from './adapters/sql/database.js';
import { migrateLatest } from './adapters/sql/migrate.js';
import { listen } from './adapters/http/http-server.js';
import { WorkerPoolBatchVerifier } from './adapters/workers/worker-pool-batch-verifier.js';
import { helperNiceFor, lowerHelperThreads } from './adapters/workers/thread-priority.js';
import { KnexProofStore } from './adapters/sql/knex-proof-store.js';
import type { RowWriter } from './adapters/sql/proof-batch-writer.js';
import { WorkerRowWriter } from './adapters/sql/worker-row-writer.js';
import { SystemClock } from './adapters/system-clock.js';
import type { Config } from './config.js';
import { KeyStoreUsageTotals } from './application/fleet/key-store-usage-totals.js';
import type { KeyUsageTotals } from './application/fleet/get-wallet-stats.js';
import type { FleetStore } from './application/ports/fleet-store.js';
import type { ProofActivityReader } from './application/ports/proof-activity.js';
import { KnexFleetStore } from './adapters/sql/knex-fleet-store.js';
import { KnexKeyStore } from './adapters/sql/knex-key-store.js';
import { KnexProofActivity } from './adapters/sql/knex-proof-activity.js';
import { fleetRouteSet } from './fleet-wiring.js';
import { createDashboard, submitProofFor, withDashboard, type DashboardParts } from './dashboard-wiring.js';

/** Service identifiers: one per port or component the composition root hands out. */
export const TOKENS = {
  Config: Symbol.for('Config'),
  Logger: Symbol.for('Logger'),
  Database: Symbol.for('Database'),
  Clock: Symbol.for('Clock'),
  Protocol: Symbol.for('ProofProtocol'),
  ProofStore: Symbol.for('ProofStore'),
  BatchVerifier: Symbol.for('BatchVerifier'),
  Authenticator: Symbol.for('Authenticator'),
  RateLimiter: Symbol.for('RateLimiter'),
  Metrics: Symbol.for('HttpMetrics'),
  ExtraRoutes: Symbol.for('ExtraRoutes'),
  OnAuthenticatedResponse: Symbol.for('OnAuthenticatedResponse'),
  SubmitProof: Symbol.for('SubmitProof'),
  GetProof: Symbol.for('GetProof'),
  SearchProofs: Symbol.for('SearchProofs'),
  VerifyBatch: Symbol.for('VerifyBatch'),
  ScoreProof: Symbol.for('ScoreProof'),
  HttpApp: Symbol.for('HttpApp'),
  FleetStore: Symbol.for('FleetStore'),
  ProofActivity: Symbol.for('ProofActivityReader'),
  KeyUsageTotals: Symbol.for('KeyUsageTotals'),
} as const;

/** What must exist before the container: things built asynchronously or shared with main. */
export interface Resources {
  readonly config: Config;
  readonly logger: Logger;
  readonly database: Database;
  readonly blake3: HashWasmBlake3;
  readonly batchVerifier: BatchVerifier;
  readonly authenticator: Authenticator;
  readonly rateLimiter?: RateLimiter;
  readonly extraRoutes?: readonly AnyRoute[];
  readonly onAuthenticatedResponse?: (principal: Principal, status: number) => void;
  /** Swap any port, e.g. an in-memory store or a fixed clock in tests. */
  readonly overrides?: {
    readonly clock?: Clock;
    /** A proof store override should come with a fleet store it feeds (MemoryProofStore's listener). */
    readonly proofStore?: ProofStore;
    readonly metrics?: HttpMetrics;
    readonly fleetStore?: FleetStore;
    readonly proofActivity?: ProofActivityReader;
  };
  /** API-key usage for the wallet statistics; by default summed from the key table. */
  readonly keyUsage?: KeyUsageTotals;
  /** Where proof write transactions run; by default on `database.knex`. */
  readonly proofRows?: RowWriter;
  /** The web dashboard: its routes, its page, and the refused-submission counts. */
  readonly dashboard?: DashboardParts;
}

/** The one composition root: binds every port to its adapter. */
export function buildContainer(r: Resources): Container {
  const c = new Container({ defaultScope: 'Singleton' });
  c.bind<Config>(TOKENS.Config).toConstantValue(r.config);
  c.bind<Logger>(TOKENS.Logger).toConstantValue(r.logger);
  c.bind<Database>(TOKENS.Database).toConstantValue(r.database);
  c.bind<Clock>(TOKENS.Clock).toConstantValue(r.overrides?.clock ?? new SystemClock());
  c.bind<BatchVerifier>(TOKENS.BatchVerifier).toConstantValue(r.batchVerifier);
  c.bind<Authenticator>(TOKENS.Authenticator).toConstantValue(r.authenticator);
  c.bind<HttpMetrics>(TOKENS.Metrics).toConstantValue(r.overrides?.metrics ?? new HttpMetrics());
  c.bind<ProofProtocol>(TOKENS.Protocol).toDynamicValue((ctx) => {
    const ed25519 = selectEd25519();
    const { maxDepth, maxEvents, maxBatch } = r.config;
    return new MeasuredProofProtocol(new ProofProtocol(r.blake3, ed25519, ed25519, { maxDepth, maxEvents, maxBatch }), ctx.get(TOKENS.Metrics));
  });
  c.bind<ProofStore>(TOKENS.ProofStore).toDynamicValue((ctx) => {
    if (r.overrides?.proofStore) return r.overrides.proofStore;
    const metrics = ctx.get<HttpMetrics>(TOKENS.Metrics);
    return new KnexProofStore(r.database, { ...(r.proofRows ? { rows: r.proofRows } : {}), onBatch: (proofs) => metrics.writeBatchProofs.observe(proofs) });
  });
  c.bind<FleetStore>(TOKENS.FleetStore).toDynamicValue(() => r.overrides?.fleetStore ?? new KnexFleetStore(r.database));
  c.bind<ProofActivityReader>(TOKENS.ProofActivity).toDynamicValue(() => r.overrides?.proofActivity ?? new KnexProofActivity(r.database));
  c.bind<KeyUsageTotals>(TOKENS.KeyUsageTotals).toDynamicValue(() => r.keyUsage ?? new KeyStoreUsageTotals(new KnexKeyStore(r.database)));

  c.bind(TOKENS.SubmitProof).toDynamicValue((ctx) => {
    // Submissions are checked on the verify workers when there are some, off the event loop.
    const protocol = ctx.get<ProofProtocol>(TOKENS.Protocol);
    const pool = r.batchVerifier as Partial<ProofChecker>;
    const checker = typeof pool.check === 'function' ? new MeasuredProofChecker(pool as ProofChecker, ctx.get(TOKENS.Metrics)) : protocol.checker;
    return submitProofFor(r.dashboard, checker, new MeasuredProofStore(ctx.get(TOKENS.ProofStore), ctx.get(TOKENS.Metrics)), ctx.get(TOKENS.Clock));
  });
  c.bind(TOKENS.GetProof).toDynamicValue((ctx) => new GetProof(ctx.get(TOKENS.ProofStore)));
  c.bind(TOKENS.SearchProofs).toDynamicValue((ctx) => new SearchProofs(ctx.get(TOKENS.ProofStore)));
  c.bind(TOKENS.VerifyBatch).toDynamicValue((ctx) => new VerifyBatch(ctx.get(TOKENS.BatchVerifier)));
  c.bind(TOKENS.ScoreProof).toDynamicValue((ctx) => new ScoreProof(ctx.get(TOKENS.Protocol), ctx.get(TOKENS.ProofStore), ctx.get(TOKENS.Clock)));

  c.bind<Koa>(TOKENS.HttpApp).toDynamicValue((ctx) => {
    const metrics = ctx.get<HttpMetrics>(TOKENS.Metrics);
    const routes: AnyRoute[] = [];
    let document: unknown;
    routes.push(
      ...opsRoutes({
        metrics,
        ready: async () => (await r.database.knex.raw('select 1'), true),
        openapi: () => (document ??= openApiDocument(routes, { version: '1.0.0', serverUrl: r.config.publicOrigin })),
      }),
      ...proofRoutes({
        submit: ctx.get(TOKENS.SubmitProof),
        get: ctx.get(TOKENS.GetProof),
        search: ctx.get(TOKENS.SearchProofs),
        verifyBatch: ctx.get(TOKENS.VerifyBatch),
        score: ctx.get(TOKENS.ScoreProof),
        protocol: ctx.get(TOKENS.Protocol),
        metrics,
        batchBodyLimitBytes: r.config.batchBodyLimitBytes,
        maxBatch: r.config.maxBatch,
      }),
      ...fleetRouteSet({
        fleet: ctx.get(TOKENS.FleetStore),
        proofs: ctx.get(TOKENS.ProofStore),
        activity: ctx.get(TOKENS.ProofActivity),
        keyUsage: ctx.get(TOKENS.KeyUsageTotals),
        clock: ctx.get(TOKENS.Clock),
        config: r.config,
        metrics,
      }),
      ...(r.extraRoutes ?? []),
      ...(r.dashboard?.routes ?? []),
    );
    return withDashboard(createHttpApp({
      routes,
      authenticator: r.authenticator,
      ...(r.rateLimiter ? { rateLimiter: r.rateLimiter } : {}),
      ...(r.onAuthenticatedResponse ? { onAuthenticatedResponse: r.onAuthenticatedResponse } : {}),
      metrics,
      logger: r.logger,
      bodyLimitBytes: r.config.bodyLimitBytes,
      trustProxy: r.config.trustProxy,
    }), r.dashboard);
  });
  return c;
}

/** What the identity module hands the service: authentication, limits, and its own routes. */
export interface IdentityParts {
  readonly authenticator: Authenticator;
  readonly rateLimiter?: RateLimiter;
  readonly routes?: readonly AnyRoute[];
  readonly onAuthenticatedResponse?: (principal: Principal, status: number) => void;
  readonly describeBalanceSource?: string;
  /** Usage totals for the wallet statistics (flushing pending counts first, ideally). */
  readonly keyUsage?: KeyUsageTotals;
  close?(): Promise<void>;
}

export interface RegistryOptions {
  readonly logger: Logger;
  /** Builds authentication on the opened database (the identity module in production). */
  readonly identity: (database: Database, clock: Clock, metrics: HttpMetrics) => Promise<IdentityParts>;
  /** Defaults to a worker pool sized by VERIFY_WORKERS (0 = one per core). */
  readonly batchVerifier?: BatchVerifier & { close?(): Promise<void> };
  readonly overrides?: Resources['overrides'];
}

export interface RunningRegistry {
  readonly url: string;
  readonly container: Container;
  readonly database: Database;
  /** Graceful: stop accepting, finish in-flight requests, then close workers and the database. */
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

/** Opens the database (migrating it), builds the container and starts listening. */
export async function startRegistry(config: Config, options: RegistryOptions): Promise<RunningRegistry> {
  const database = await openDatabase(config.databaseUrl, { onDriverWarning: (detail) => options.logger.warn({ detail }, 'database driver') }).catch(naming('DATABASE_URL'));
  const opened: Array<() => Promise<void>> = [() => database.close()];
  const closeAll = async () => {
    for (const close of opened.reverse()) await close().catch((err: unknown) => options.logger.error({ err }, 'close failed'));
  };
  try {
    const applied = await migrateLatest(database).catch(naming('DATABASE_URL'));
    if (applied.length) options.logger.info({ migrations: applied }, 'database migrated');
    const limits = { maxDepth: config.maxDepth, maxEvents: config.maxEvents, maxBatch: config.maxBatch };
    const helperNice = helperNiceFor(config.helperThreadNice, availableParallelism());
    const batchVerifier =
      options.batchVerifier ??
      (await WorkerPoolBatchVerifier.create({
        ...(config.verifyWorkers > 0 ? { size: config.verifyWorkers } : {}),
        protocol: { limits },
        niceIncrement: helperNice,
      }));
    if (batchVerifier !== options.batchVerifier && batchVerifier.close) opened.push(() => batchVerifier.close!());
    const proofRows = await startRowWriter(config, database, options.logger, helperNice);
    if (proofRows) opened.push(() => proofRows.close());
    const clock = options.overrides?.clock ?? new SystemClock();
    const metrics = options.overrides?.metrics ?? new HttpMetrics();
    const identity = await options.identity(database, clock, metrics);
    if (identity.close) opened.push(() => identity.close!());
    if (identity.describeBalanceSource) options.logger.info(`token balances: ${identity.describeBalanceSource}`);
    const dashboard = await createDashboard({ config, database, clock, logger: options.logger, ...(options.overrides?.proofStore ? { proofStore: options.overrides.proofStore } : {}) });
    opened.push(() => dashboard.close());
    const container = buildContainer({
      config,
      logger: options.logger,
      database,
      blake3: await HashWasmBlake3.create(),
      batchVerifier,
      authenticator: identity.authenticator,
      ...(identity.rateLimiter ? { rateLimiter: identity.rateLimiter } : {}),
      ...(identity.routes ? { extraRoutes: identity.routes } : {}),
      ...(identity.onAuthenticatedResponse ? { onAuthenticatedResponse: identity.onAuthenticatedResponse } : {}),
      ...(identity.keyUsage ? { keyUsage: identity.keyUsage } : {}),
      ...(proofRows ? { proofRows } : {}),
      dashboard,
      overrides: { ...options.overrides, clock, metrics },
    });
    // Every thread that exists by now (libuv's pool, V8's helpers, the workers) below the event loop.
    const lowered = lowerHelperThreads(helperNice);
    if (lowered > 0) options.logger.info({ threads: lowered, niceness: `+${helperNice}` }, 'helper threads run below the event loop');
    const server = await listen(container.get<Koa>(TOKENS.HttpApp), config.port, config.host).catch(naming('HOST and PORT'));
    return {
      url: server.url,
      container,
      database,
      close: async () => {
        await server.close(config.shutdownGraceMs);
        await closeAll();
      },
    };
  } catch (err) {
    await closeAll();
    throw err;
  }
}

/**
 * The proof writer thread (WRITER_THREAD, on by default) for databases a second connection can
 * reach: an SQLite file or PostgreSQL. `sqlite::memory:` lives in this connection only.
 */
async function startRowWriter(config: Config, database: Database, logger: Logger, niceIncrement: number): Promise<WorkerRowWriter | null> {
  return config.writerThread ? WorkerRowWriter.forDatabase(database, {
        onDriverWarning: (detail) => logger.warn({ detail, thread: 'writer' }, 'database driver'),
        niceIncrement,
      }) : null;
}
