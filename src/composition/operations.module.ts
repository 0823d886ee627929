import { ContainerModule } from 'inversify';
import { Gauge } from 'prom-client';
import { RouteCatalog } from '../adapters/http/route-catalog.js';
import { opsRoutes } from '../adapters/http/routes/ops-routes.js';
import { storedProofs } from '../adapters/sql/stored-proofs.js';
import { CORE } from './core.tokens.js';
import { OPERATIONS } from './operations.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const WATCH_MS = 60_000;

const module = new ContainerModule(({ bind }) => {
  provide(bind, OPERATIONS.Catalog, [CORE.Config], (config) => new RouteCatalog({ version: '1.0.0', serverUrl: config.publicOrigin }));

  // How big the registry has grown, as a gauge; an SQLite registry past the size it was measured
  // to hold its rates at says once in the log that PostgreSQL is the way on (docs/operations.md).
  provide(
    bind,
    OPERATIONS.StorageWatch,
    [CORE.Metrics, CORE.Database, CORE.Config, CORE.Logger, CORE.Lifecycle],
    (metrics, database, config, logger, lifecycle) => {
      const gauge = new Gauge({ name: 'stored_proofs', help: 'Proofs stored (all wallets), read once a minute.', registers: [metrics.registry] });
      let warned = false;
      const watch = async () => {
        const n = await storedProofs(database);
        gauge.set(n);
        if (database.dialect !== 'sqlite' || warned || n <= config.sqliteProofsWarn) return;
        warned = true;
        logger.warn(
          { storedProofs: n, measuredUpTo: config.sqliteProofsWarn },
          'this SQLite registry holds more proofs than SQLite was measured to keep its submission rate and read times at; move it to PostgreSQL with `proof-registry copy-database` (docs/operations.md)',
        );
      };
      void watch().catch((err: unknown) => logger.error({ err }, 'counting stored proofs failed'));
      lifecycle.flushEvery(WATCH_MS, watch, 'counting stored proofs failed; will retry');
      return { watch };
    },
  );
  provide(
    bind,
    OPERATIONS.Routes,
    [CORE.Metrics, CORE.Database, OPERATIONS.Catalog, CORE.Config, OPERATIONS.StorageWatch],
    (metrics, database, catalog, config) =>
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
