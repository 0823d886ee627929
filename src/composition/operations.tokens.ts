import type { AnyRoute } from '../adapters/http/route.js';
import type { RouteCatalog } from '../adapters/http/route-catalog.js';
import { token } from './token.js';

/** The operations slice: health, readiness, metrics and the OpenAPI document of every route. */
export const OPERATIONS = {
  /** Every slice's routes, gathered by the root: what the app serves and the OpenAPI document shows. */
  Catalog: token<RouteCatalog>('operations.Catalog'),
  Routes: token<readonly AnyRoute[]>('operations.Routes'),
  /** Counts the stored proofs once a minute (gauge `stored_proofs`), and warns past what SQLite was measured to hold. */
  StorageWatch: token<{ watch(): Promise<void> }>('operations.StorageWatch'),
} as const;
