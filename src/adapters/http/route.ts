import type * as t from 'io-ts';
import type { Context } from 'koa';
import type { Principal } from '../../application/ports/authenticator.js';
import type { Scope } from '../../domain/identity/key-grant.js';

export type RouteAuth = 'none' | 'api_key' | 'jwt';
export type Method = 'get' | 'post' | 'patch' | 'delete';

export interface Reply {
  readonly status: number;
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

export interface RouteRequest<P, Q, B, A extends RouteAuth = RouteAuth> {
  readonly params: P;
  readonly query: Q;
  readonly body: B;
  /** Who is calling: on every route that takes a credential, established before the handler runs. */
  readonly principal: A extends 'none' ? null : Principal;
  /** The body's text as received (decompressed and decoded), on routes that ask for it (`rawBody`). */
  readonly rawBody?: string;
  readonly ctx: Context;
}

export interface ResponseSpec {
  readonly description: string;
  /** Codec of the JSON body, for the OpenAPI document and for response checks in tests. */
  readonly body?: t.Mixed;
  /** A non-JSON body's media type (e.g. metrics text). */
  readonly mediaType?: string;
  /** Other media types the answer may take (an export's CSV and JSON Lines, a report's CSV), each with what it holds, documented as text. */
  readonly mediaTypes?: Readonly<Record<string, string>>;
  /** Response headers worth documenting, each with what it says. */
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * One HTTP operation: how to decode it, who may call it, what it answers. The router and the
 * OpenAPI document are both built from these, so the documentation is the implementation.
 */
export interface RouteSpec<P = unknown, Q = unknown, B = unknown, A extends RouteAuth = RouteAuth> {
  readonly method: Method;
  /** OpenAPI-style path, e.g. `/v1/proofs/{proof_id}`; a last `{name*}` takes the rest of the path, slashes included. */
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly tag: string;
  readonly auth: A;
  /**
   * On routes that take an API key (`auth: 'api_key'`), the scope the key needs, or `'any'`
   * for a route every key of the wallet may call. Required there: the app refuses to start
   * with a key route that does not say. Written into the OpenAPI document.
   */
  readonly scope?: Scope | 'any';
  readonly params?: t.Type<P, unknown, unknown>;
  readonly query?: t.Type<Q, unknown, unknown>;
  readonly body?: t.Type<B, unknown, unknown>;
  /**
   * Rate limited per client IP in this bucket before anything else, body parsing included,
   * so malformed requests count too (sign-in). Authenticated routes are limited per credential.
   */
  readonly ipRateLimit?: 'sign_in' | 'api';
  /** The handler also gets the body's text (`RouteRequest.rawBody`), besides the parsed body. */
  readonly rawBody?: boolean;
  /**
   * A read whose work grows with what it answers (a list, a search, statistics): it waits for
   * one of the app's read slots, held until its answer is serialized, so that readers cannot
   * take the cores from submissions (HttpAppOptions.readBounds).
   */
  readonly heavyRead?: boolean;
  /** Largest accepted body; defaults to the app's single-request limit. */
  readonly bodyLimitBytes?: number;
  readonly responses: Readonly<Record<number, ResponseSpec>>;
  handle(request: RouteRequest<P, Q, B, A>): Promise<Reply>;
}

// Specs are stored type-erased; `route()` keeps each one's own types checked where it is written.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyRoute = RouteSpec<any, any, any, any>;

export const route = <P, Q, B, A extends RouteAuth>(spec: RouteSpec<P, Q, B, A>): AnyRoute => spec as AnyRoute;
