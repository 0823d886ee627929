import { randomUUID } from 'node:crypto';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { Principal } from '../../application/ports/authenticator.js';
import type { HttpMetrics } from './http-metrics.js';

const REQUEST_ID = /^[A-Za-z0-9._-]{1,128}$/;

export interface ObserveOptions {
  readonly metrics: Pick<HttpMetrics, 'requests' | 'duration'>;
  readonly logger: Logger;
  /** Told about every response to an authenticated request (API-key usage figures). */
  readonly onAuthenticatedResponse?: (principal: Principal, status: number, endpoint: string | null) => void;
}

/** Request id, structured access log and metrics for every request, whatever its outcome. */
export function observe(options: ObserveOptions): Koa.Middleware {
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
      if (principal) options.onAuthenticatedResponse?.(principal, ctx.status, (ctx.state.endpoint as string | undefined) ?? null);
      options.logger.info(
        { req_id: requestId, method: ctx.method, route, path: ctx.path, status: ctx.status, ms: Math.round(seconds * 1e4) / 10, wallet: principal?.wallet },
        'request',
      );
    }
  };
}
