import { ContainerModule } from 'inversify';
import { RouteCatalog } from '../adapters/http/route-catalog.js';
import { opsRoutes } from '../adapters/http/routes/ops-routes.js';
import { CORE } from './core.tokens.js';
import { OPERATIONS } from './operations.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const module = new ContainerModule(({ bind }) => {
  provide(bind, OPERATIONS.Catalog, [CORE.Config], (config) => new RouteCatalog({ version: '1.0.0', serverUrl: config.publicOrigin }));
  provide(bind, OPERATIONS.Routes, [CORE.Metrics, CORE.Database, OPERATIONS.Catalog, CORE.Config], (metrics, database, catalog, config) =>
    opsRoutes({
      metrics,
      metricsToken: config.metricsToken,
      ready: async () => (await database.knex.raw('select 1'), true),
      openapi: () => catalog.openApi(),
    }),
  );
});

/** What operators and tools ask of the service itself: liveness, readiness, metrics, the API's description. */
export const operationsSlice: Slice = { name: 'operations', module, routes: OPERATIONS.Routes };
