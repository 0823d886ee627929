import type Koa from 'koa';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import { HttpError } from './http-error.js';
import type { HttpMetrics } from './http-metrics.js';

/**
 * How the edge tells infrastructure failures apart; the adapter that raises them knows (see
 * adapters/sql/database-errors.ts): a dependency that is down or unreachable is 503, not a bug.
 */
export interface FailureClassifier {
  /** A dependency is down or unreachable: 503 with Retry-After. */
  unavailable(err: unknown): boolean;
  /** The database or its driver raised it: counted in database_errors_total. */
  fromDatabase(err: unknown): boolean;
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
export function errorsToJson(logger: Logger, metrics: Pick<HttpMetrics, 'databaseErrors'>, failures: FailureClassifier): Koa.Middleware {
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
      if (failures.fromDatabase(err)) metrics.databaseErrors.inc();
      ctx.status = failures.unavailable(err) ? 503 : 500;
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
