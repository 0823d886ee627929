import test from 'ava';
import { anEnvelope } from '../../support/mothers.js';
import { aWallet, ManualClock } from '../../support/identity.js';
import { startDashboardRegistry, type DashboardRegistry } from '../../support/dashboard-registry.js';
import { openApiConformance } from '../../support/openapi-conformance.js';

// The series and usage routes behind the dashboard's charts, on the production wiring (SQLite).
const clock = new ManualClock(Date.parse('2026-11-20T10:30:00Z'));
const alice = aWallet(1);
const bob = aWallet(2);
let registry: DashboardRegistry;
let token: string;
test.before(async () => {
  registry = await startDashboardRegistry({ clock });
  await registry.fund(alice.address, '50000');
  await registry.fund(bob.address, '50000');
  token = await registry.signIn(alice);
});
test.after.always(async () => registry?.close());

const asAlice = (method: string, path: string, body?: unknown) =>
  registry.call(method, path, { credential: token, wallet: alice.address, ...(body !== undefined ? { body } : {}) });

test.serial('the series has every hour of the last day, zeros included, with proofs, refusals and active devices per bucket', async (t) => {
  const created = await asAlice('POST', '/v1/keys', { name: 'series' });
  const key = created.body.key as string;
  const submit = (envelope: unknown) => registry.call('POST', '/v1/proofs', { credential: key, wallet: alice.address, body: { envelope } });
  t.is((await submit(anEnvelope({ taskId: 's1', robotId: 'arm-1', createdAt: '2026-11-20T09:10:00Z' }))).status, 200);
  t.is((await submit(anEnvelope({ taskId: 's2', robotId: 'arm-2', createdAt: '2026-11-20T09:50:00Z' }))).status, 200);
  t.is((await submit(anEnvelope({ taskId: 's3', robotId: 'arm-1', createdAt: '2026-11-20T10:05:00Z' }))).status, 200);
  // Outside the window: a day and a half earlier.
  t.is((await submit(anEnvelope({ taskId: 's4', robotId: 'arm-1', createdAt: '2026-11-18T22:00:00Z' }))).status, 200);
  const tampered = { ...anEnvelope({ taskId: 'bad' }), signature_b64: 'A'.repeat(88) };
  t.is((await submit(tampered)).status, 422);
  t.is((await submit(tampered)).status, 422);

  const res = await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?bucket=hour`);
  t.is(res.status, 200);
  t.is(res.body.bucket, 'hour');
  t.is(res.body.from, '2026-11-19T11:00:00.000Z');
  t.is(res.body.to, '2026-11-20T11:00:00.000Z');
  t.is(res.body.points.length, 24);
  const at = (iso: string) => res.body.points.find((p: { t: string }) => p.t === iso);
  t.deepEqual(at('2026-11-20T09:00:00.000Z'), { t: '2026-11-20T09:00:00.000Z', proofs: 2, invalid: 0, devices_active: 2 });
  t.deepEqual(at('2026-11-20T10:00:00.000Z'), { t: '2026-11-20T10:00:00.000Z', proofs: 1, invalid: 2, devices_active: 1 });
  t.deepEqual(at('2026-11-19T11:00:00.000Z'), { t: '2026-11-19T11:00:00.000Z', proofs: 0, invalid: 0, devices_active: 0 });
  t.is(
    res.body.points.reduce((n: number, p: { proofs: number }) => n + p.proofs, 0),
    3,
  );

  const days = await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?bucket=day`);
  t.is(days.body.points.length, 30);
  t.deepEqual(days.body.points.at(-1), { t: '2026-11-20T00:00:00.000Z', proofs: 3, invalid: 2, devices_active: 2 });
  t.deepEqual(days.body.points.at(-3), { t: '2026-11-18T00:00:00.000Z', proofs: 1, invalid: 0, devices_active: 1 });

  const window = await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?bucket=day&from=2026-11-18T12:00:00Z&to=2026-11-20T00:00:00Z`);
  t.is(window.body.from, '2026-11-18T00:00:00.000Z');
  t.is(window.body.to, '2026-11-20T00:00:00.000Z');
  t.deepEqual(
    window.body.points.map((p: { proofs: number }) => p.proofs),
    [1, 0],
  );
});

test.serial('the series refuses another wallet, an empty window, more than 1,000 buckets and an unknown bucket', async (t) => {
  t.is((await asAlice('GET', `/v1/stats/wallet/${bob.address}/series`)).status, 403);
  const empty = await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?from=2026-11-20T00:00:00Z&to=2026-11-19T00:00:00Z`);
  t.is(empty.status, 422);
  t.regex(empty.body.detail, /later than from/);
  const many = await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?bucket=hour&from=2026-01-01T00:00:00Z&to=2026-11-20T00:00:00Z`);
  t.is(many.status, 422);
  t.regex(many.body.detail, /at most 1000/);
  t.is((await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?bucket=week`)).status, 422);
  t.is((await registry.call('GET', `/v1/stats/wallet/${alice.address}/series`)).status, 401);
});

test.serial("a key's usage has one row per day, zeros included, and moves with its requests; another wallet's key is 404", async (t) => {
  const created = await asAlice('POST', '/v1/keys', { name: 'usage' });
  const { key, key_id: keyId } = created.body as { key: string; key_id: string };
  const before = await asAlice('GET', `/v1/keys/${keyId}/usage?days=7`);
  t.is(before.status, 200);
  t.deepEqual(
    before.body.items.map((d: { day: string }) => d.day),
    ['2026-11-14', '2026-11-15', '2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20'],
  );
  t.true(before.body.items.every((d: { request_count: number }) => d.request_count === 0));

  t.is((await registry.call('GET', '/v1/proofs', { credential: key, wallet: alice.address })).status, 200);
  t.is((await registry.call('GET', '/v1/proofs/nope', { credential: key, wallet: alice.address })).status, 404);
  t.is((await registry.call('GET', '/v1/proofs', { credential: key, wallet: bob.address })).status, 403);
  clock.advance(86_400_000);
  t.is((await registry.call('GET', '/v1/proofs', { credential: key, wallet: alice.address })).status, 200);
  token = await registry.signIn(alice);

  const after = await asAlice('GET', `/v1/keys/${keyId}/usage?days=3`);
  t.deepEqual(after.body, {
    key_id: keyId,
    days: 3,
    items: [
      { day: '2026-11-19', request_count: 0, error_count: 0 },
      { day: '2026-11-20', request_count: 3, error_count: 2 },
      { day: '2026-11-21', request_count: 1, error_count: 0 },
    ],
    // Per endpoint, the request refused for its wallet header included.
    endpoints: [
      {
        endpoint: 'GET /v1/proofs',
        request_count: 3,
        error_count: 1,
        items: [
          { day: '2026-11-19', request_count: 0, error_count: 0 },
          { day: '2026-11-20', request_count: 2, error_count: 1 },
          { day: '2026-11-21', request_count: 1, error_count: 0 },
        ],
      },
      {
        endpoint: 'GET /v1/proofs/{proof_id}',
        request_count: 1,
        error_count: 1,
        items: [
          { day: '2026-11-19', request_count: 0, error_count: 0 },
          { day: '2026-11-20', request_count: 1, error_count: 1 },
          { day: '2026-11-21', request_count: 0, error_count: 0 },
        ],
      },
    ],
  });
  const csv = await asAlice('GET', `/v1/keys/${keyId}/usage?days=3&format=csv`);
  t.is(csv.status, 200);
  t.is(csv.headers.get('content-type'), 'text/csv; charset=utf-8');
  t.is(csv.headers.get('content-disposition'), `attachment; filename="key-usage-${keyId}-3d.csv"`);
  t.is(
    csv.body,
    [
      'endpoint,day,request_count,error_count',
      '*,2026-11-19,0,0',
      '*,2026-11-20,3,2',
      '*,2026-11-21,1,0',
      'GET /v1/proofs,2026-11-19,0,0',
      'GET /v1/proofs,2026-11-20,2,1',
      'GET /v1/proofs,2026-11-21,1,0',
      'GET /v1/proofs/{proof_id},2026-11-19,0,0',
      'GET /v1/proofs/{proof_id},2026-11-20,1,1',
      'GET /v1/proofs/{proof_id},2026-11-21,0,0',
      '',
    ].join('\r\n'),
  );
  const json = await asAlice('GET', `/v1/keys/${keyId}/usage?days=3&format=json`);
  t.deepEqual(json.body, after.body, 'the same figures as a file');
  t.is(json.headers.get('content-disposition'), `attachment; filename="key-usage-${keyId}-3d.json"`);
  t.is((await asAlice('GET', `/v1/keys/${keyId}/usage?format=xml`)).status, 422);
  t.is((await asAlice('GET', `/v1/keys/${keyId}/usage`)).body.items.length, 30);
  t.is((await asAlice('GET', `/v1/keys/${keyId}/usage?days=91`)).status, 422);
  t.is((await asAlice('GET', `/v1/keys/${keyId}/usage?days=0`)).status, 422);

  const bobToken = await registry.signIn(bob);
  const foreign = await registry.call('GET', `/v1/keys/${keyId}/usage`, { credential: bobToken, wallet: bob.address });
  t.is(foreign.status, 404);
  t.is((await asAlice('DELETE', `/v1/keys/${keyId}`)).status, 204);
  t.is((await asAlice('GET', `/v1/keys/${keyId}/usage`)).status, 404);
});

test.serial('the dashboard settings say the local ledger offers a development wallet, and how to fund one', async (t) => {
  const res = await registry.call('GET', '/v1/dashboard/config');
  t.is(res.status, 200);
  t.like(res.body, { balance_source: 'local_ledger', development_wallet: true, chain_id: 'localnet', minimum_balance: 50000 });
  t.is(res.body.fund_command, 'node bin/proof-registry.js ledger set <wallet> 50000');
  const doc = await registry.call('GET', '/openapi.json');
  for (const path of ['/v1/stats/wallet/{addr}/series', '/v1/keys/{key_id}/usage', '/v1/dashboard/config']) t.truthy(doc.body.paths[path], path);
});

test.serial('GET / redirects to the dashboard', async (t) => {
  const res = await registry.call('GET', '/');
  t.is(res.status, 302);
  t.is(res.headers.get('location'), '/dashboard/');
  t.is((await registry.call('GET', '/dashboard')).headers.get('location'), '/dashboard/');
  t.is((await registry.call('POST', '/dashboard/')).status, 405);
});

test.serial(
  'the page is served after the API: routes answer as before, unknown API paths are JSON 404s, and the page is not in the OpenAPI document',
  async (t) => {
    const page = await registry.call('GET', '/dashboard/fleet?status=online');
    t.is(page.status, 200);
    t.regex(page.headers.get('content-type') ?? '', /^text\/html/);
    t.regex(page.headers.get('content-security-policy') ?? '', /default-src 'none'/);
    const unknown = await registry.call('GET', '/v1/nope');
    t.is(unknown.status, 404);
    t.like(unknown.body, { code: 'not_found' });
    const doc = await registry.call('GET', '/openapi.json');
    t.is(doc.status, 200);
    t.false(Object.keys(doc.body.paths).some((p) => p === '/' || p.startsWith('/dashboard')));
  },
);

test.serial('real series, usage and settings answers match the schemas the OpenAPI document gives them, formats included', async (t) => {
  const check = openApiConformance((await registry.call('GET', '/openapi.json')).body);
  const created = await asAlice('POST', '/v1/keys', { name: 'documented' });
  const answers: Array<[string, string, Awaited<ReturnType<typeof asAlice>>]> = [
    ['/v1/stats/wallet/{addr}/series', 'get', await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?bucket=day`)],
    ['/v1/stats/wallet/{addr}/series', 'get', await asAlice('GET', `/v1/stats/wallet/${alice.address}/series?bucket=week`)],
    ['/v1/stats/wallet/{addr}/series', 'get', await asAlice('GET', `/v1/stats/wallet/${bob.address}/series`)],
    ['/v1/keys/{key_id}/usage', 'get', await asAlice('GET', `/v1/keys/${created.body.key_id}/usage?days=2`)],
    ['/v1/keys/{key_id}/usage', 'get', await asAlice('GET', '/v1/keys/key_nope/usage')],
    ['/v1/dashboard/config', 'get', await registry.call('GET', '/v1/dashboard/config')],
  ];
  t.deepEqual(
    answers.map(([, , r]) => r.status),
    [200, 422, 403, 200, 404, 200],
  );
  for (const [path, method, res] of answers) t.is(check(path, method, res.status, res.body), null);
});

test('with a Solana RPC as the balance source, no development wallet is offered and no funding command is given', async (t) => {
  const rpc = await startDashboardRegistry({
    env: { SOLANA_RPC_URL: 'http://127.0.0.1:9/rpc', ACCESS_TOKEN_MINT: 'So11111111111111111111111111111111111111112' },
  });
  t.teardown(() => rpc.close());
  const res = await rpc.call('GET', '/v1/dashboard/config');
  t.like(res.body, { balance_source: 'solana_rpc', development_wallet: false, chain_id: 'mainnet', fund_command: null });
});
