import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { CountedSubmitProof } from './application/dashboard/counted-submit-proof.js';
import { GetActivitySeries } from './application/dashboard/get-activity-series.js';
import type { ProofChecker } from './application/ports/proof-checker.js';
import { SubmitProof } from './application/proofs/submit-proof.js';
import { RejectionTally } from './application/dashboard/usage-tallies.js';
import type { Clock } from './application/ports/clock.js';
import type { ProofStore } from './application/ports/proof-store.js';
import { dashboardMiddleware, loadDashboardAssets } from './adapters/http/dashboard-assets.js';
import type { AnyRoute } from './adapters/http/route.js';
import { dashboardConfigRoutes, seriesRoutes } from './adapters/http/routes/dashboard-routes.js';
import { MemoryProofSeries } from './adapters/memory/memory-usage-series.js';
import type { Database } from './adapters/sql/database.js';
import { KnexProofSeries } from './adapters/sql/knex-proof-series.js';
import { KnexProofRejectionLog } from './adapters/sql/knex-usage-counters.js';
import type { Config } from './config.js';
import { chainIdFor } from './domain/identity/sign-in-message.js';

/** What the dashboard slice adds to the service: its routes, the page, and the refusal counts. */
export interface DashboardParts {
  readonly routes: readonly AnyRoute[];
  /** Serves the page and its assets; mounted after the API router. */
  readonly middleware: Koa.Middleware;
  /** Counts refused proof submissions (SubmitProof reports them). */
  readonly rejections: { record(wallet: string, atMs: number): void };
  /** Writes the counts not yet written. */
  close(): Promise<void>;
}

/** SubmitProof; with the dashboard, it also counts refused submissions for the series. */
export const submitProofFor = (d: DashboardParts | undefined, checker: ProofChecker, store: ProofStore, clock: Clock): SubmitProof =>
  d ? new CountedSubmitProof(checker, store, clock, d.rejections) : new SubmitProof(checker, store, clock);

/** Mounts the page after the API router: it only sees requests no route took. */
export function withDashboard(app: Koa, d: DashboardParts | undefined): Koa {
  if (d) app.use(d.middleware);
  return app;
}

/** The built page: dashboard/dist at the package root (found from this file, under src/ or dist/src/). */
export function defaultDashboardDir(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) dir = path.dirname(dir);
  return path.join(dir, 'dashboard', 'dist');
}

/**
 * Part of the composition root: the series route and its counters, the page's settings route,
 * and the page itself, read into memory once.
 */
export async function createDashboard(o: {
  readonly config: Config;
  readonly database: Database;
  readonly clock: Clock;
  readonly logger: Logger;
  /** A proof store that is not the database's (tests): the series is then read through it. */
  readonly proofStore?: ProofStore;
  readonly dashboardDir?: string;
}): Promise<DashboardParts> {
  const log = new KnexProofRejectionLog(o.database);
  const tally = new RejectionTally(log);
  const flush = () => tally.flush().catch((err: unknown) => o.logger.error({ err }, 'writing refused-submission counts failed; will retry'));
  const timer = setInterval(flush, 1000);
  timer.unref();
  const dir = o.dashboardDir ?? defaultDashboardDir();
  const assets = await loadDashboardAssets(dir);
  if (assets.index === null) o.logger.warn({ dir }, 'the dashboard is not built: /dashboard/ answers 503 (run npm run build:dashboard)');
  const series = new GetActivitySeries(o.proofStore ? new MemoryProofSeries(o.proofStore) : new KnexProofSeries(o.database), log, tally, o.clock);
  return {
    routes: [
      ...seriesRoutes({ series }),
      ...dashboardConfigRoutes({
        localLedger: o.config.solanaRpcUrl === null,
        chainId: chainIdFor(o.config.solanaRpcUrl),
        mint: o.config.accessTokenMint,
        minimumBalance: o.config.accessMinBalance,
        tokenTtlS: o.config.jwtTtlS,
      }),
    ],
    middleware: dashboardMiddleware(assets),
    rejections: tally,
    close: async () => {
      clearInterval(timer);
      await flush();
    },
  };
}
