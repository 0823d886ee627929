import * as t from 'io-ts';
import type { HttpMetrics } from '../http-metrics.js';
import { route, type AnyRoute } from '../route.js';

export interface OpsRouteDeps {
  readonly metrics: HttpMetrics;
  /** True when the database answers. */
  readonly ready: () => Promise<boolean>;
  /** The OpenAPI document, built once from every route. */
  readonly openapi: () => unknown;
}

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
      auth: 'none',
      responses: { 200: { description: 'Prometheus text exposition format.', mediaType: 'text/plain; version=0.0.4' } },
      handle: async () => ({
        status: 200,
        body: await d.metrics.registry.metrics(),
        headers: { 'Content-Type': d.metrics.registry.contentType },
      }),
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
