import type { ContainerModule } from 'inversify';
import type Koa from 'koa';
import type { AnyRoute } from '../adapters/http/route.js';
import type { Token } from './token.js';

/**
 * A feature of the registry: one module that binds its adapters and use cases (with its own
 * token file), and the routes it serves. The root loads every slice's module and serves
 * every slice's routes; adding a feature is adding a slice to its list.
 */
export interface Slice {
  readonly name: string;
  readonly module: ContainerModule;
  readonly routes: Token<readonly AnyRoute[]>;
  /**
   * What the slice serves that is not an API route (a web page and its assets): Koa
   * middleware run after the router, so it only sees requests no route took.
   */
  readonly pages?: Token<Koa.Middleware>;
  /**
   * Served, but described in a document of the slice's own rather than in /openapi.json: a
   * second personality of the API (`/acto`), whose routes are not part of the native contract.
   */
  readonly documentedApart?: boolean;
}
