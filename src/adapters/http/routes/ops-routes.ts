import { createHash, timingSafeEqual } from 'node:crypto';
import * as t from 'io-ts';
import { ErrorBody } from '../codecs/common.codecs.js';
import { HttpError } from '../http-error.js';
import type { HttpMetrics } from '../http-metrics.js';
import { route, type AnyRoute } from '../route.js';

export interface OpsRouteDeps {
  readonly metrics: HttpMetrics;
  /** True when the database answers. */
  readonly ready: () => Promise<boolean>;
  /** The OpenAPI document, built once from every route. */
  readonly openapi: () => unknown;
  /** When set, /metrics answers only `Authorization: Bearer <this>` (METRICS_TOKEN). */
  readonly metricsToken?: string | null;
}

/** Compares digests, so neither the token's length nor its first differing byte shows in the timing. */
const sameSecret = (given: string, expected: string) =>
  timingSafeEqual(createHash('sha256').update(given).digest(), createHash('sha256').update(expected).digest());

const Health = t.type({ ok: t.boolean, service: t.string, version: t.string }, 'Health');
const Ready = t.type({ ready: t.boolean }, 'Ready');

export function opsRoutes(d: OpsRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/health',
      operationId: 'health',
      tag: 'operations',
      summary: 'Liveness: the process serves requests',
      auth: 'none',
      responses: { 200: { description: 'Healthy.', body: Health } },
      handle: async () => ({ status: 200, body: { ok: true, service: 'proof-registry', version: 'v1' } }),
    }),
    route({
      method: 'get',
      path: '/ready',
      operationId: 'ready',
      tag: 'operations',
      summary: 'Readiness: the database answers',
      auth: 'none',
      responses: { 200: { description: 'Ready.', body: Ready }, 503: { description: 'The database does not answer.', body: Ready } },
      handle: async () => {
        const ready = await d.ready().catch(() => false);
        return ready ? { status: 200, body: { ready } } : { status: 503, body: { ready, detail: 'database unavailable' }, headers: { 'Retry-After': '5' } };
      },
    }),
    route({
      method: 'get',
      path: '/metrics',
      operationId: 'metrics',
      tag: 'operations',
      summary: 'Prometheus metrics',
      description: 'Needs `Authorization: Bearer <METRICS_TOKEN>` when the service has METRICS_TOKEN set.',
      auth: 'none',
      responses: {
        200: { description: 'Prometheus text exposition format.', mediaType: 'text/plain; version=0.0.4' },
        401: { description: 'METRICS_TOKEN is set and the request does not carry it.', body: ErrorBody },
      },
      handle: async ({ ctx }) => {
        const token = d.metricsToken;
        if (token) {
          const given = /^Bearer +(\S+) *$/i.exec(ctx.get('authorization'))?.[1];
          if (given === undefined || !sameSecret(given, token)) {
            throw new HttpError(
              401,
              'metrics need the metrics token: Authorization: Bearer <METRICS_TOKEN>',
              { code: 'missing_credential' },
              { 'WWW-Authenticate': 'Bearer realm="metrics"' },
            );
          }
          ctx.set('Cache-Control', 'no-store');
        }
        return {
          status: 200,
          body: await d.metrics.registry.metrics(),
          headers: { 'Content-Type': d.metrics.registry.contentType },
        };
      },
    }),
    route({
      method: 'get',
      path: '/openapi.json',
      operationId: 'openapi',
      tag: 'operations',
      summary: 'This API as an OpenAPI 3.1 document',
      auth: 'none',
      responses: { 200: { description: 'The OpenAPI document.', body: t.UnknownRecord } },
      handle: async () => ({ status: 200, body: d.openapi() }),
    }),
  ];
}
