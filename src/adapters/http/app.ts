import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, unzipSync } from 'node:zlib';
import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa, { type Context, type Next } from 'koa';
import { HttpMethodEnum, koaBody } from 'koa-body';
import type { Logger } from 'pino';
import type { Authenticator, Principal } from '../../application/ports/authenticator.js';
import type { RateLimiter } from '../../application/ports/rate-limiter.js';
import { authFailureToHttp } from './auth-failure-status.js';
import { assertWellFormedPath, assertWellFormedQuery, decodeOr422, knownParameters, singleValuedQuery } from './decode.js';
import { HttpError } from './http-error.js';
import type { HttpMetrics } from './http-metrics.js';
import type { AnyRoute } from './route.js';

export interface HttpAppOptions {
  readonly routes: readonly AnyRoute[];
  readonly authenticator: Authenticator;
  readonly rateLimiter?: RateLimiter;
  readonly metrics: HttpMetrics;
  readonly logger: Logger;
  /** Body limit of ordinary requests (bytes); routes may raise their own. */
  readonly bodyLimitBytes: number;
  /** Behind a reverse proxy: take the client IP from X-Forwarded-For. */
  readonly trustProxy?: boolean;
  /** Told about every response to an authenticated request (API-key usage figures). */
  readonly onAuthenticatedResponse?: (principal: Principal, status: number) => void;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

/** Media types read as JSON: application/json and every `+json` type. Anything else is 415. */
const JSON_TYPES = ['application/json', 'application/*+json'];

/** Builds the Koa application from route specs. Knows HTTP, not the domain. */
export function createHttpApp(options: HttpAppOptions): Koa {
  const app = new Koa({ proxy: options.trustProxy ?? false });
  const router = new Router({ sensitive: true });
  const parsers = new Map<string, Koa.Middleware>();
  const parserFor = (limit: number, includeUnparsed: boolean) => {
    const key = `${limit} ${includeUnparsed}`;
    let parser = parsers.get(key);
    if (!parser) {
      // Not strict: any JSON value is parsed, so a well-formed body of the wrong kind (null,
      // a string, a number) is a 422 naming its kind, not a 400.
      parser = koaBody({
        json: true,
        jsonStrict: false,
        jsonTypes: JSON_TYPES,
        jsonLimit: limit,
        includeUnparsed,
        multipart: false,
        urlencoded: false,
        text: false,
        parsedMethods: [HttpMethodEnum.POST, HttpMethodEnum.PUT, HttpMethodEnum.PATCH, HttpMethodEnum.DELETE],
        onError: acceptProtoMembers,
      });
      parsers.set(key, parser);
    }
    return parser;
  };

  // Paths without parameters and their methods: `GET /v1/proofs/search` also matches
  // `GET /v1/proofs/{proof_id}`, but the client meant the search, which only takes POST.
  const fixedPaths = new Map<string, string[]>();
  for (const spec of options.routes) {
    if (!spec.path.includes('{')) fixedPaths.set(spec.path, [...(fixedPaths.get(spec.path) ?? []), spec.method.toUpperCase()]);
  }

  for (const spec of options.routes) {
    const koaPath = spec.path.replace(/\{([^}]+)\}/g, ':$1');
    const parameterized = spec.path.includes('{');
    const stack: Koa.Middleware[] = [
      (ctx, next) => {
        ctx.state.route = spec.path;
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
      stack.push(async (ctx, next) => {
        await limit(ctx, options, `ip:${ctx.ip}`, bucket);
        await next();
      });
    }
    // Credentials first: a request that will be refused is not read nor parsed, and every
    // request made with a key counts in its usage, a malformed body included.
    const auth = spec.auth;
    if (auth !== 'none') {
      stack.push(async (ctx, next) => {
        ctx.state.principal = await authenticate(ctx, auth, options);
        await next();
      });
    }
    if (spec.body) {
      const limit = spec.bodyLimitBytes ?? options.bodyLimitBytes;
      stack.push(requireJson, utf8Only(parserFor(limit, spec.rawBody === true), limit));
    }
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

  app.use(observe(options));
  app.use(errorsToJson(options.logger, options.metrics));
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
  return app;
}

async function authenticate(ctx: Context, auth: 'api_key' | 'jwt', options: HttpAppOptions): Promise<Principal> {
  const result = await options.authenticator.authenticate({
    authorization: ctx.get('authorization') || undefined,
    walletHeader: ctx.get('x-wallet-address') || undefined,
    accepts: auth === 'jwt' ? ['jwt'] : ['api_key', 'jwt'],
  });
  if (result._tag === 'Left') {
    // Failed credentials count against the client's IP, so guessing keys is rate limited too.
    await limit(ctx, options, `ip:${ctx.ip}`, 'api');
    throw authFailureToHttp(result.left);
  }
  // Known before the limit is applied, so a rate-limited request still counts in the key's usage.
  ctx.state.principal = result.right;
  await limit(ctx, options, result.right.keyId ? `key:${result.right.keyId}` : `wallet:${result.right.wallet}`, 'api');
  return result.right;
}

export async function limit(ctx: Context, options: Pick<HttpAppOptions, 'rateLimiter'>, key: string, bucket: 'api' | 'sign_in'): Promise<void> {
  if (!options.rateLimiter) return;
  const decision = await options.rateLimiter.consume(key, bucket);
  ctx.set({
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetS),
  });
  if (!decision.allowed) {
    throw new HttpError(429, `rate limit exceeded: ${decision.limit} requests per window; retry in ${decision.resetS} s`, { code: 'rate_limited' }, { 'Retry-After': String(decision.resetS) });
  }
}

/**
 * The parsed body; a request without one is `{}`, so its members are reported missing. The
 * JSON parser answers `''` for zero bytes sent as JSON, which are not JSON text.
 */
function bodyOf(ctx: Context): unknown {
  const body: unknown = ctx.request.body;
  if (body === '') throw new HttpError(400, 'malformed JSON body: the body is empty (send a JSON object)', { code: 'malformed_json' });
  return body === undefined ? {} : body;
}

/** The text koa-body parsed (`includeUnparsed`); absent when it parsed none, or a body was re-parsed (acceptProtoMembers). */
function rawBodyOf(ctx: Context): string | undefined {
  const raw: unknown = (ctx.request as { rawBody?: unknown }).rawBody;
  return typeof raw === 'string' ? raw : undefined;
}

/**
 * koa-body parses JSON with co-body, which refuses any body with a `__proto__` member (its
 * guard against prototype poisoning) and offers no way to turn that off through koa-body.
 * JSON.parse makes such a member an ordinary own property, never an object's prototype, and a
 * signed envelope may carry one in `meta` or event data: the body is valid and its signature
 * covers that member. So that one refusal is undone by parsing the text co-body attaches to
 * the error with JSON.parse; every other parse error stands (400).
 */
function acceptProtoMembers(error: Error, ctx: Context): void {
  const text = (error as Error & { body?: unknown }).body;
  if (typeof text !== 'string' || !/forbidden prototype property/.test(error.message)) throw error;
  ctx.request.body = JSON.parse(text) as typeof ctx.request.body;
}

/**
 * JSON exchanged between systems must be UTF-8 (RFC 8259, section 8.1), and koa-body decodes
 * a body as UTF-8 whatever it holds, turning each invalid sequence into U+FFFD: a body with
 * one would be read as a different text from the one sent (a signed envelope then fails its
 * hash check for no visible reason; an unsigned member is stored altered). So the bytes are
 * watched as the parser reads them, and a body that is not UTF-8 is 400, before any route
 * sees it. Watching is a second 'data' listener on the request, added in the same turn as the
 * parser's own (nothing is awaited between), so both see every chunk; `buffer.isUtf8`
 * checks the whole body at once, a sequence split between chunks included.
 *
 * A compressed body (Content-Encoding gzip, deflate or br, which the parser inflates) is
 * watched as it arrives and, once the parser has accepted it, inflated again here to check
 * the text it holds: twice the inflating, for the rare client that compresses its requests,
 * so that no body reaches a route decoded lossily. The parser has by then refused any
 * encoding it does not know (415) and any body that inflates past the limit (413).
 */
function utf8Only(parser: Koa.Middleware, limitBytes: number): Koa.Middleware {
  return async (ctx, next) => {
    const inflate = contentCoding(ctx);
    // A compressed body is never much larger than what it inflates to; twice the limit is room enough.
    const watched = watchBytes(ctx.req, inflate === null ? limitBytes : 2 * limitBytes);
    let bytes: Buffer | null = null;
    try {
      await parser(ctx, async () => undefined);
    } catch (err) {
      // The inflater's own errors (a truncated or corrupt stream) carry no HTTP status.
      if (inflate && typeof (err as { status?: unknown }).status !== 'number') throw notInflatable();
      throw err;
    } finally {
      bytes = watched();
    }
    if (bytes && !isUtf8(inflate === null ? bytes : inflated(inflate, bytes, limitBytes))) {
      throw new HttpError(400, 'malformed JSON body: the body is not valid UTF-8 (JSON text must be UTF-8, RFC 8259)', { code: 'malformed_json' });
    }
    await next();
  };
}

type Inflater = (bytes: Buffer, options: { maxOutputLength: number }) => Buffer;
/** Content-Encoding values the parser inflates, and how (null: not compressed). */
const INFLATERS = new Map<string, Inflater | null>([
  ['identity', null],
  ['', null],
  ['gzip', unzipSync],
  ['deflate', unzipSync],
  ['br', brotliDecompressSync],
]);

/**
 * How the body is compressed: null when it is not. Content codings are case-insensitive
 * (RFC 9110, section 8.4.1) and the parser (the `inflation` package) matches them exactly, so
 * the header is normalized for it here; a coding it cannot undo, or more than one, is 415.
 */
function contentCoding(ctx: Context): Inflater | null {
  const header = ctx.req.headers['content-encoding'];
  if (header === undefined) return null;
  const coding = header.trim().toLowerCase();
  const inflate = INFLATERS.get(coding);
  if (inflate === undefined) {
    throw new HttpError(415, `Content-Encoding ${JSON.stringify(header)} is not supported: send the body uncompressed, or with one of gzip, deflate or br`, {
      code: 'unsupported_media_type',
    });
  }
  ctx.req.headers['content-encoding'] = coding;
  return inflate;
}

function inflated(inflate: Inflater, bytes: Buffer, limitBytes: number): Buffer {
  try {
    return inflate(bytes, { maxOutputLength: limitBytes + 1 });
  } catch {
    throw notInflatable();
  }
}

const notInflatable = () => new HttpError(400, 'malformed JSON body: the compressed body could not be inflated (see Content-Encoding)', { code: 'malformed_json' });

/** The bytes `stream` delivers from now on, up to `limitBytes` (null past it: the parser refuses those). */
function watchBytes(stream: NodeJS.ReadableStream, limitBytes: number): () => Buffer | null {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  const onData = (chunk: Buffer) => {
    size += chunk.length;
    if (size > limitBytes) {
      over = true;
      chunks.length = 0;
      stream.off('data', onData);
    } else chunks.push(chunk);
  };
  stream.on('data', onData);
  return () => {
    stream.off('data', onData);
    if (over) return null;
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
  };
}

/**
 * A body that is present must be JSON; a request with none decodes as `{}`. Zero bytes sent
 * as JSON are not JSON text (RFC 8259), so they are 400 like any other malformed JSON.
 */
async function requireJson(ctx: Context, next: Next): Promise<void> {
  const hasBody = ctx.request.length > 0 || ctx.get('transfer-encoding') !== '';
  if (hasBody && !ctx.is(JSON_TYPES)) {
    throw new HttpError(415, 'request body must be JSON (Content-Type: application/json)', { code: 'unsupported_media_type' });
  }
  await next();
}

/** Request id, structured access log and metrics for every request, whatever its outcome. */
function observe(options: HttpAppOptions): Koa.Middleware {
  return async (ctx, next) => {
    const started = process.hrtime.bigint();
    const given = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(given) ? given : randomUUID();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx.state.route as string | undefined) ?? 'unmatched';
      const labels = { method: ctx.method, route, status: String(ctx.status) };
      options.metrics.requests.inc(labels);
      options.metrics.duration.observe(labels, seconds);
      const principal = ctx.state.principal as Principal | undefined;
      if (principal) options.onAuthenticatedResponse?.(principal, ctx.status);
      options.logger.info(
        { req_id: requestId, method: ctx.method, route, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1e4) / 10, wallet: principal?.wallet },
        'request',
      );
    }
  };
}

/** The machine code of errors raised outside the routes (the router, the body parser). */
const STATUS_CODE: Record<number, string> = {
  400: 'bad_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'body_too_large',
  415: 'unsupported_media_type',
  501: 'not_implemented',
};

const STATUS_DETAIL: Record<number, string> = {
  400: 'malformed request',
  404: 'not found',
  405: 'method not allowed',
  413: 'request body is too large',
  415: 'request body must be JSON',
  501: 'method not implemented',
};

/** Every error leaves as `{detail}` JSON; a 500 never carries internals. */
function errorsToJson(logger: Logger, metrics: Pick<HttpMetrics, 'databaseErrors'>): Koa.Middleware {
  return async (ctx, next) => {
    try {
      await next();
      // The router answers 405 to a method other paths take and 501 to one no route takes
      // (TRACE, PROPFIND, CONNECT …), with the path's methods in Allow: empty when no route has
      // this path, which is then a 404.
      if (ctx.body === undefined && (ctx.status === 405 || ctx.status === 501)) {
        const allow = ctx.response.get('Allow');
        if (allow === '') {
          ctx.remove('Allow');
          ctx.status = 404;
        } else {
          ctx.status = 405;
          ctx.body = { detail: `${ctx.method} is not allowed on ${ctx.path} (allowed: ${allow})`, code: 'method_not_allowed' };
          return;
        }
      }
      if (ctx.body === undefined && ctx.status in STATUS_DETAIL && ctx.status !== 204) {
        const detail = ctx.status === 404 ? `no route for ${ctx.method} ${ctx.path}` : STATUS_DETAIL[ctx.status]!;
        const status = ctx.status;
        ctx.body = { detail, code: STATUS_CODE[status] };
        ctx.status = status;
      }
    } catch (err) {
      if (err instanceof HttpError) {
        ctx.status = err.status;
        ctx.set(err.headers);
        ctx.body = { detail: err.detail, ...err.extra };
        if (err.status === 413) await readTheRest(ctx);
        return;
      }
      const status = (err as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) {
        ctx.status = status;
        const detail = clientErrorDetail(status, err as Error);
        ctx.body = { detail, code: detail.startsWith('malformed JSON') ? 'malformed_json' : (STATUS_CODE[status] ?? 'bad_request') };
        if (status === 413) await readTheRest(ctx);
        return;
      }
      logger.error({ err, req_id: ctx.state.requestId }, 'unhandled error');
      if (isDatabaseError(err)) metrics.databaseErrors.inc();
      ctx.status = isUnavailable(err) ? 503 : 500;
      if (ctx.status === 503) ctx.set('Retry-After', '5');
      ctx.body = { detail: ctx.status === 503 ? 'a dependency is unavailable; retry later' : 'internal server error', request_id: ctx.state.requestId };
    }
  };
}

/** The most of an oversized body read (and dropped) before the 413 goes out, and how long that may take. */
const DRAIN_MAX_BYTES = 64 * 1024 * 1024;
const DRAIN_MAX_MS = 10_000;

/**
 * Before a 413: the rest of the body is read and dropped, up to DRAIN_MAX_BYTES declared in
 * Content-Length. Answering while the client is still sending, then closing, makes the kernel
 * reset the connection over the unread bytes, and the client may then see the reset instead
 * of the 413; read to its end, the connection even stays usable for the next request. A body
 * of unknown length (chunked) or a larger one is not waited for: the answer says
 * `Connection: close`, as the rest of the body cannot be told from a next request.
 */
async function readTheRest(ctx: Context): Promise<void> {
  const req = ctx.req;
  if (req.complete) return;
  const declared = Number(req.headers['content-length']);
  const drained =
    Number.isSafeInteger(declared) &&
    declared <= DRAIN_MAX_BYTES &&
    (await new Promise<boolean>((resolve) => {
      const done = (ended: boolean) => {
        clearTimeout(timer);
        req.off('end', onEnd).off('error', onError).off('close', onClose);
        resolve(ended);
      };
      const onEnd = () => done(true);
      const onError = () => done(false);
      const onClose = () => done(req.complete);
      const timer = setTimeout(() => done(false), DRAIN_MAX_MS);
      req.on('end', onEnd).on('error', onError).on('close', onClose);
      // The body parser may have left it piped into an inflater, or paused.
      req.unpipe();
      req.resume();
    }));
  if (!drained) ctx.set('Connection', 'close');
}

function clientErrorDetail(status: number, err: Error): string {
  if (status === 400 && /JSON|Unexpected|token/i.test(err.message)) return `malformed JSON body: ${err.message}`;
  if (status === 413) return `request body is too large (limit ${(err as { limit?: number }).limit ?? '?'} bytes)`;
  return STATUS_DETAIL[status] ?? err.message;
}

/**
 * Failures of a dependency that is down or unreachable (database, cache) are 503, not a bug:
 * no connection (refused, reset, timed out, host unknown), no pool slot in time, and the
 * PostgreSQL classes for connection loss (08), exhausted resources (53), an operator's
 * shutdown (57P01–57P03), a database that is gone (3D000) and refused logins (28).
 */
export function isUnavailable(err: unknown): boolean {
  const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code !== 'string') return false;
  if (UNAVAILABLE_CODES.has(code)) return true;
  return isPostgresError(err) && (code.startsWith('08') || code.startsWith('53') || code.startsWith('28') || code === '3D000' || /^57P0[123]$/.test(code));
}

const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

/** An error the database or its driver raised (counted in database_errors_total). */
export function isDatabaseError(err: unknown): boolean {
  const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return true;
  return isPostgresError(err) || (typeof code === 'string' && UNAVAILABLE_CODES.has(code));
}

/** node-postgres's DatabaseError: a five-character SQLSTATE and a severity. */
function isPostgresError(err: unknown): boolean {
  const { code, severity } = (err ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

