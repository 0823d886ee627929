import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import type { Principal } from '../../application/ports/authenticator.js';
import { authenticate, limit, type HttpAccess } from './access.js';
import { assertWellFormedPath, assertWellFormedQuery, decodeOr422, knownParameters, singleValuedQuery } from './decode.js';
import { DEFAULT_READ_BOUNDS, Slots, type ReadBounds } from './slots.js';
import { errorsToJson, type FailureClassifier } from './errors-to-json.js';
import { HttpError } from './http-error.js';
import type { HttpMetrics } from './http-metrics.js';
import { bodyOf, DEFAULT_BODY_BOUNDS, JsonBodyReader, rawBodyOf, type BodyBounds } from './json-body.js';
import { observe } from './observe.js';
import type { AnyRoute } from './route.js';

export interface HttpAppOptions {
  readonly routes: readonly AnyRoute[];
  /** Served after the router, for requests no route took: web pages and their assets. */
  readonly pages?: readonly Koa.Middleware[];
  readonly access: HttpAccess;
  readonly metrics: HttpMetrics;
  readonly logger: Logger;
  /** Tells a dependency that is down (503) from a bug (500); the SQL adapter's `databaseFailures`. */
  readonly failures: FailureClassifier;
  /** Body limit of ordinary requests (bytes); routes may raise their own. */
  readonly bodyLimitBytes: number;
  /** How many large or compressed bodies are read at once, and how many objects a body may hold. */
  readonly bodyBounds?: BodyBounds;
  /** Heavy reads (routes marked `heavyRead`) answered at once, how many may wait, and how many of one wallet's (slots.ts). */
  readonly readBounds?: ReadBounds;
  /**
   * Reverse proxies in front of the service (0: none). The client address is the entry that
   * many places from the right of X-Forwarded-For, the one the outermost trusted proxy added:
   * entries further left were written by the client and choose nothing.
   */
  readonly trustProxyHops?: number;
}

/** Builds the Koa application from route specs. Knows HTTP, not the domain. */
export function createHttpApp(options: HttpAppOptions): Koa {
  const hops = options.trustProxyHops ?? 0;
  const app = new Koa({ proxy: hops > 0, maxIpsCount: hops });
  const router = new Router({ sensitive: true });
  const bodies = new JsonBodyReader(options.bodyBounds ?? DEFAULT_BODY_BOUNDS);
  const readBounds = options.readBounds ?? DEFAULT_READ_BOUNDS;
  const reads = new Slots(readBounds);
  // Paths without parameters and their methods: `GET /v1/proofs/search` also matches
  // `GET /v1/proofs/{proof_id}`, but the client meant the search, which only takes POST.
  const fixedPaths = new Map<string, string[]>();
  for (const spec of options.routes) {
    if (!spec.path.includes('{')) fixedPaths.set(spec.path, [...(fixedPaths.get(spec.path) ?? []), spec.method.toUpperCase()]);
  }

  for (const spec of options.routes) {
    // `{name*}` takes the rest of the path, slashes included (the log's tile paths).
    const koaPath = spec.path.replace(/\{([^}]+)\*\}/g, '*$1').replace(/\{([^}]+)\}/g, ':$1');
    const parameterized = spec.path.includes('{');
    const endpoint = `${spec.method.toUpperCase()} ${spec.path}`;
    const stack: Koa.Middleware[] = [
      (ctx, next) => {
        ctx.state.route = spec.path;
        ctx.state.endpoint = endpoint;
        const fixed = parameterized ? fixedPaths.get(ctx.path) : undefined;
        if (fixed && !fixed.includes(ctx.method)) {
          const allow = fixed.join(', ');
          throw new HttpError(405, `${ctx.method} is not allowed on ${ctx.path} (allowed: ${allow})`, { code: 'method_not_allowed' }, { Allow: allow });
        }
        if (parameterized) assertWellFormedPath(ctx.path);
        assertWellFormedQuery(ctx.querystring);
        // A parameter given twice is 400 on every route, those that read no parameters included.
        if (!spec.query && ctx.querystring !== '') singleValuedQuery(ctx.query);
        return next();
      },
    ];
    const bucket = spec.ipRateLimit;
    if (bucket) {
      // Limited per IP in the API's bucket (public reads) or the sign-in bucket.
      stack.push(async (ctx, next) => {
        await limit(ctx, options.access, `ip:${ctx.ip}`, bucket);
        await next();
      });
    }
    // Credentials first: a request that will be refused is not read nor parsed, and every
    // request made with a key counts in its usage, a malformed body included.
    const auth = spec.auth;
    if (auth === 'api_key' && spec.scope === undefined) throw new Error(`${spec.method.toUpperCase()} ${spec.path} takes an API key but declares no scope`);
    const scope = spec.scope === 'any' ? undefined : spec.scope;
    if (auth !== 'none') {
      stack.push(async (ctx, next) => {
        // A wallet's data, and its refusals, are for that caller only: no cache keeps them.
        ctx.set('Cache-Control', 'no-store');
        ctx.state.principal = await authenticate(ctx, auth, scope, endpoint, options.access);
        await next();
      });
    }
    if (spec.body) stack.push(...bodies.forRoute(spec.bodyLimitBytes ?? options.bodyLimitBytes, spec.rawBody === true));
    if (spec.heavyRead) stack.push(heavyRead(reads));
    stack.push(async (ctx) => {
      const principal = (ctx.state.principal as Principal | undefined) ?? null;
      const reply = await spec.handle({
        principal,
        params: spec.params ? decodeOr422(spec.params, ctx.params, 'path') : ctx.params,
        query: spec.query ? decodeOr422(spec.query, knownParameters(spec.query, singleValuedQuery(ctx.query)), 'query') : {},
        body: spec.body ? decodeOr422(spec.body, bodyOf(ctx), 'body') : undefined,
        ...(spec.rawBody ? { rawBody: rawBodyOf(ctx) } : {}),
        ctx,
      });
      ctx.status = reply.status;
      if (reply.headers) ctx.set(reply.headers);
      if (reply.body !== undefined) ctx.body = reply.body;
    });
    router.register(koaPath, [spec.method.toUpperCase()], stack);
  }

  // What reaches Koa's own handler: a client that left before a streamed answer ended (an
  // event stream closed) is not the service's error; anything else is logged, never printed.
  app.on('error', (err: NodeJS.ErrnoException) => {
    if (err.code === 'ERR_STREAM_PREMATURE_CLOSE' || err.code === 'ECONNRESET' || err.code === 'EPIPE') return;
    options.logger.error({ err }, 'error after the response began');
  });
  // Every answer, pages and errors included, is read as the type it declares, never sniffed.
  app.use((ctx, next) => {
    ctx.set('X-Content-Type-Options', 'nosniff');
    return next();
  });
  app.use(observe({ metrics: options.metrics, logger: options.logger, onAuthenticatedResponse: options.access.onAuthenticatedResponse }));
  app.use(errorsToJson(options.logger, options.metrics, options.failures));
  // OPTIONS on a fixed path lists that path's own methods, as its 405 does: the router would
  // also count `GET /v1/proofs/{proof_id}` for `/v1/proofs/search`.
  app.use(async (ctx, next) => {
    const fixed = ctx.method === 'OPTIONS' ? fixedPaths.get(ctx.path) : undefined;
    if (!fixed) return next();
    ctx.set('Allow', [...fixed, ...(fixed.includes('GET') ? ['HEAD'] : [])].join(', '));
    ctx.status = 200;
    ctx.body = '';
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
  for (const page of options.pages ?? []) app.use(page);
  return app;
}

/**
 * A heavy read runs in one of a few slots, from its query to its serialized answer (most of
 * the work of a page of 200 proofs is on the event loop), so that however many clients read,
 * the submissions keep the cores. Only what is already authenticated, rate limited and read
 * waits for a slot, and wallets take turns (Slots).
 */
function heavyRead(slots: Slots): Koa.Middleware {
  return async (ctx, next) => {
    const wallet = (ctx.state.principal as Principal | undefined)?.wallet ?? `ip:${ctx.ip}`;
    // What the handler reads after answering (a streamed export's pages) takes slots of its own, in the same turns.
    ctx.state.readSlot = () => slots.acquire(wallet, { admitted: true });
    const release = await slots.acquire(wallet);
    try {
      await next();
      const body: unknown = ctx.body;
      // Koa would serialize it after the slot is released: it is done here, as Koa would.
      if (typeof body === 'object' && body !== null && !Buffer.isBuffer(body) && typeof (body as { pipe?: unknown }).pipe !== 'function')
        ctx.body = JSON.stringify(body);
    } finally {
      release();
    }
  };
}
