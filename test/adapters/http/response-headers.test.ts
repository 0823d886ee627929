import test from 'ava';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry } from '../../support/registry.js';

test('authenticated answers are not cached, refusals included; every answer says nosniff', async (t) => {
  const registry = await startTestRegistry();
  t.teardown(() => registry.close());
  const stored = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'no-store' }) });
  t.is(stored.status, 200);
  for (const reply of [stored, await registry.call(WALLET_A, 'GET', `/v1/proofs/${stored.body.proof_id}`), await registry.call(null, 'GET', '/v1/proofs')]) {
    t.is(reply.headers.get('cache-control'), 'no-store', String(reply.status));
    t.is(reply.headers.get('x-content-type-options'), 'nosniff');
  }
  for (const path of ['/health', '/openapi.json', '/no/such/route']) {
    const reply = await registry.call(null, 'GET', path);
    t.is(reply.headers.get('x-content-type-options'), 'nosniff', path);
  }
});

test('with METRICS_TOKEN set, /metrics answers only its bearer, and holds no per-scrape device count', async (t) => {
  const token = 'metrics-token-0123456789';
  const registry = await startTestRegistry({ env: { METRICS_TOKEN: token } });
  t.teardown(() => registry.close());
  const none = await registry.call(null, 'GET', '/metrics');
  t.is(none.status, 401);
  t.is(none.headers.get('www-authenticate'), 'Bearer realm="metrics"');
  const wrong = await registry.call(null, 'GET', '/metrics', undefined, { authorization: `Bearer ${token}x` });
  t.is(wrong.status, 401);
  const right = await registry.call(null, 'GET', '/metrics', undefined, { authorization: `Bearer ${token}` });
  t.is(right.status, 200);
  t.regex(right.body, /http_requests_total/);
  t.notRegex(right.body, /fleet_devices|wallet="/);
  // Without the setting, /metrics stays open (a private network's Prometheus needs no secret).
  const open = await startTestRegistry();
  t.teardown(() => open.close());
  t.is((await open.call(null, 'GET', '/metrics')).status, 200);
});
