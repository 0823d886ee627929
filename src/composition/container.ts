import 'reflect-metadata';
import { Container, type ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import type { Database } from '../adapters/sql/database.js';
import type { Config } from '../config.js';
import { actoSlice } from './acto.module.js';
import { coreModule } from './core.module.js';
import { CORE } from './core.tokens.js';
import { dashboardSlice } from './dashboard.module.js';
import { eventsSlice } from './events.module.js';
import { fleetSlice } from './fleet.module.js';
import { identitySlice } from './identity.module.js';
import { logSlice } from './log.module.js';
import type { Lifecycle } from './lifecycle.js';
import { operationsSlice } from './operations.module.js';
import { proofsSlice } from './proofs.module.js';
import type { Slice } from './slice.js';

/** The registry's features, in the order their routes are served and documented. */
export const SLICES: readonly Slice[] = [operationsSlice, proofsSlice, fleetSlice, identitySlice, logSlice, eventsSlice, dashboardSlice, actoSlice];

/** What exists before the container: the root makes these (or a test does). */
export interface Resources {
  readonly config: Config;
  readonly logger: Logger;
  readonly database: Database;
  readonly lifecycle: Lifecycle;
}

/**
 * The container with every slice loaded, then `overrides`: modules that rebind any token
 * (an in-memory store, a fixed clock, a test authenticator). Nothing is made until asked for.
 */
export function buildContainer(resources: Resources, overrides: readonly ContainerModule[] = []): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(CORE.Config).toConstantValue(resources.config);
  container.bind(CORE.Logger).toConstantValue(resources.logger);
  container.bind(CORE.Database).toConstantValue(resources.database);
  container.bind(CORE.Lifecycle).toConstantValue(resources.lifecycle);
  container.load(coreModule, ...SLICES.map((slice) => slice.module), ...overrides);
  return container;
}
