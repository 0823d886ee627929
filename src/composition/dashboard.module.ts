import { ContainerModule } from 'inversify';
import { dashboardMiddleware, defaultDashboardDir, loadDashboardAssets } from '../adapters/http/dashboard-assets.js';
import { dashboardConfigRoutes, seriesRoutes } from '../adapters/http/routes/dashboard-routes.js';
import { statisticsRoutes } from '../adapters/http/routes/statistics-routes.js';
import { KnexProofBreakdown } from '../adapters/sql/knex-proof-breakdown.js';
import { KnexProofSeries } from '../adapters/sql/knex-proof-series.js';
import { GetActivitySeries } from '../application/dashboard/get-activity-series.js';
import { GetStatistics } from '../application/dashboard/get-statistics.js';
import { chainIdFor } from '../domain/identity/sign-in-message.js';
import { CORE } from './core.tokens.js';
import { DASHBOARD } from './dashboard.tokens.js';
import { IDENTITY } from './identity.tokens.js';
import { PROOFS } from './proofs.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const module = new ContainerModule(({ bind }) => {
  provide(bind, DASHBOARD.ProofSeries, [CORE.Database], (database) => new KnexProofSeries(database));
  // Refusals come from the proofs slice, which counts them as SubmitProof refuses.
  provide(
    bind,
    DASHBOARD.GetActivitySeries,
    [DASHBOARD.ProofSeries, PROOFS.RejectionLog, PROOFS.Rejections, CORE.Clock],
    (series, log, pending, clock) => new GetActivitySeries(series, log, pending, clock),
  );
  provide(bind, DASHBOARD.ProofBreakdown, [CORE.Database], (database) => new KnexProofBreakdown(database));
  // Requests per endpoint come from the identity slice's key usage, its pending counts written first.
  provide(
    bind,
    DASHBOARD.GetStatistics,
    [
      DASHBOARD.GetActivitySeries,
      DASHBOARD.ProofSeries,
      DASHBOARD.ProofBreakdown,
      IDENTITY.KeyStore,
      IDENTITY.KeyUsageHistory,
      IDENTITY.KeyEndpointTally,
      CORE.Clock,
    ],
    (series, proofs, breakdown, keys, usage, pending, clock) => new GetStatistics(series, proofs, breakdown, keys, usage, pending, clock),
  );
  provide(bind, DASHBOARD.Routes, [DASHBOARD.GetActivitySeries, DASHBOARD.GetStatistics, CORE.Config], (series, statistics, config) => [
    ...seriesRoutes({ series }),
    ...statisticsRoutes({ statistics }),
    ...dashboardConfigRoutes({
      localLedger: config.solanaRpcUrl === null,
      chainId: chainIdFor(config.solanaRpcUrl),
      mint: config.accessTokenMint,
      minimumBalance: config.accessMinBalance,
      tokenTtlS: config.jwtTtlS,
    }),
  ]);
  provide(bind, DASHBOARD.Page, [CORE.Logger], async (logger) => {
    const dir = defaultDashboardDir();
    const assets = await loadDashboardAssets(dir);
    if (assets.index === null) logger.warn({ dir }, 'the dashboard is not built: /dashboard/ answers 503 (run npm run build:dashboard)');
    return dashboardMiddleware(assets);
  });
});

/** The operator's web page at /dashboard/, the series behind its charts, and the settings it reads before sign-in. */
export const dashboardSlice: Slice = { name: 'dashboard', module, routes: DASHBOARD.Routes, pages: DASHBOARD.Page };
