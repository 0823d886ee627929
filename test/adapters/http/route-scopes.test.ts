import test from 'ava';
import { pino } from 'pino';
import { createHttpApp } from '../../../src/adapters/http/app.js';
import { HttpMetrics } from '../../../src/adapters/http/http-metrics.js';
import { route, type RouteSpec } from '../../../src/adapters/http/route.js';
import { TestAuthenticator } from '../../support/test-authenticator.js';

const spec = (over: Partial<RouteSpec>): RouteSpec => ({
  method: 'get',
  path: '/v1/thing',
  operationId: 'thing',
  summary: 'a thing',
  tag: 'test',
  auth: 'api_key',
  responses: { 200: { description: 'ok' } },
  handle: async () => ({ status: 200, body: {} }),
  ...over,
});

const app = (routes: RouteSpec[]) =>
  createHttpApp({
    routes: routes.map((r) => route(r)),
    access: { authenticator: new TestAuthenticator() },
    metrics: new HttpMetrics({ defaultMetrics: false }),
    logger: pino({ level: 'silent' }),
    failures: { unavailable: () => false, fromDatabase: () => false },
    bodyLimitBytes: 1024,
  });

test('a route that takes an API key must say which scope: the app refuses to start without it', (t) => {
  t.throws(() => app([spec({})]), { message: 'GET /v1/thing takes an API key but declares no scope' });
  t.notThrows(() => app([spec({ scope: 'proofs:read' })]));
  t.notThrows(() => app([spec({ scope: 'any' })]));
  t.notThrows(() => app([spec({ auth: 'jwt' })]), 'a dashboard token holds every scope');
});
