import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { isRight } from 'fp-ts/lib/Either.js';
import * as c from '../../../src/adapters/http/codecs/fleet.codecs.js';
import type { Clock } from '../../../src/application/ports/clock.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

// A clock the tests move: statuses derive from it. Windows: online 5 min, offline after 1 h.
let now = Date.parse('2026-11-20T10:30:00Z');
const clock: Clock = { nowMs: () => now };
const MIN = 60_000;

let registry: TestRegistry;
test.before(async () => {
  registry = await startTestRegistry({ clock, env: { DEVICE_ONLINE_WINDOW_S: '300', DEVICE_OFFLINE_AFTER_S: '3600', HEALTH_HISTORY_LIMIT: '3' } });
});
test.after.always(async () => registry?.close());

const conforms = (codec: { decode(u: unknown): unknown }, body: unknown) => isRight(codec.decode(body) as never);
let seq = 0;
const submit = async (wallet: string, robotId?: string) => {
  const res = await registry.call(wallet, 'POST', '/v1/proofs', {
    envelope: anEnvelope({ taskId: `t-${++seq}`, ...(robotId !== undefined ? { robotId } : {}) }),
  });
  if (res.status !== 200) throw new Error(`submit failed: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.proof_id as string;
};
/** Each test gets its own wallet (routes are wallet-scoped), so tests may run concurrently. */
const wallet = (n: number) => `FleetWallet${String(n).padStart(3, '0')}${'1'.repeat(30)}`;
const enc = encodeURIComponent;

test.serial('proofs from several robots build the fleet; the overview counts them', async (t) => {
  const w = wallet(1);
  for (const robot of ['arm-1', 'arm-1', 'arm-2', 'cam/1 x', 'arm-1']) await submit(w, robot);
  await submit(w); // no robot_id: no device
  const res = await registry.call(w, 'GET', '/v1/fleet');
  t.is(res.status, 200);
  t.true(conforms(c.OverviewResponse, res.body), JSON.stringify(res.body).slice(0, 300));
  t.deepEqual(
    res.body.devices.map((d: { device_id: string; proof_count: number; status: string }) => [d.device_id, d.proof_count, d.status]),
    [
      ['arm-1', 3, 'online'],
      ['arm-2', 1, 'online'],
      ['cam/1 x', 1, 'online'],
    ],
  );
  t.like(res.body.devices[0], { name: 'arm-1', custom_name: false, group_id: null, last_seen_at: new Date(now).toISOString(), last_health: null });
  t.like(res.body.summary, { total_devices: 3, by_status: { online: 3, warning: 0, offline: 0, degraded: 0, error: 0 }, group_count: 0 });
  t.deepEqual(res.body.summary.by_group, [
    { group_id: null, name: null, device_count: 3, by_status: { online: 3, warning: 0, offline: 0, degraded: 0, error: 0 } },
  ]);
  t.deepEqual(res.body.windows, { online_window_s: 300, offline_after_s: 3600 });
  // A duplicate submission counts nothing.
  const envelope = anEnvelope({ taskId: 'dup', robotId: 'arm-2' });
  await registry.call(w, 'POST', '/v1/proofs', { envelope });
  await registry.call(w, 'POST', '/v1/proofs', { envelope });
  t.is((await registry.call(w, 'GET', '/v1/fleet/devices/arm-2')).body.proof_count, 2);
});

test.serial('statuses follow the clock and the last health report', async (t) => {
  const w = wallet(2);
  await submit(w, 'r1');
  const status = async (id: string) => (await registry.call(w, 'GET', `/v1/fleet/devices/${id}`)).body.status;
  const start = now;
  try {
    t.is(await status('r1'), 'online');
    now = start + 6 * MIN;
    t.is(await status('r1'), 'warning');
    t.is((await registry.call(w, 'POST', '/v1/fleet/devices/r1/health', { status: 'degraded' })).status, 201);
    t.is(await status('r1'), 'degraded');
    now = start + 20 * MIN;
    t.is(await status('r1'), 'degraded'); // a device does not heal by silence
    await registry.call(w, 'POST', '/v1/fleet/devices/r1/health', { status: 'error', message: 'motor stalled' });
    t.is(await status('r1'), 'error');
    now = start + 20 * MIN + 61 * MIN;
    t.is(await status('r1'), 'offline');
    const overview = await registry.call(w, 'GET', '/v1/fleet?status=offline');
    t.deepEqual(
      overview.body.devices.map((d: { device_id: string }) => d.device_id),
      ['r1'],
    );
    await registry.call(w, 'POST', '/v1/fleet/devices/r1/health', { status: 'ok' });
    t.is(await status('r1'), 'online');
  } finally {
    now = start;
  }
});

test('the overview pages devices and filters by status and group', async (t) => {
  const w = wallet(3);
  for (let i = 0; i < 7; i++) await registry.call(w, 'POST', `/v1/fleet/devices/d${i}/health`, { status: i === 3 ? 'error' : 'ok' });
  const first = await registry.call(w, 'GET', '/v1/fleet?limit=3');
  t.deepEqual(
    first.body.devices.map((d: { device_id: string }) => d.device_id),
    ['d0', 'd1', 'd2'],
  );
  t.is(first.body.summary.total_devices, 7);
  const second = await registry.call(w, 'GET', `/v1/fleet?limit=3&cursor=${first.body.next_cursor}`);
  t.deepEqual(
    second.body.devices.map((d: { device_id: string }) => d.device_id),
    ['d3', 'd4', 'd5'],
  );
  const third = await registry.call(w, 'GET', `/v1/fleet?limit=3&cursor=${second.body.next_cursor}`);
  t.is(third.body.next_cursor, null);
  t.is(third.body.devices.length, 1);
  const errors = await registry.call(w, 'GET', '/v1/fleet?status=error,degraded');
  t.deepEqual(
    errors.body.devices.map((d: { device_id: string }) => d.device_id),
    ['d3'],
  );
  t.is(errors.body.summary.by_status.error, 1);
  const group = await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'odd' });
  await registry.call(w, 'POST', `/v1/fleet/groups/${group.body.group_id}/assign`, { device_ids: ['d1', 'd3', 'd5'] });
  const odd = await registry.call(w, 'GET', `/v1/fleet?group_id=${group.body.group_id}`);
  t.deepEqual(
    odd.body.devices.map((d: { device_id: string }) => d.device_id),
    ['d1', 'd3', 'd5'],
  );
  const none = await registry.call(w, 'GET', '/v1/fleet?group_id=none&limit=2');
  t.deepEqual(
    none.body.devices.map((d: { device_id: string }) => d.device_id),
    ['d0', 'd2'],
  );
  t.deepEqual(
    odd.body.summary.by_group.map((g: { group_id: string | null; name: string | null; device_count: number }) => [g.group_id, g.name, g.device_count]),
    [
      [group.body.group_id, 'odd', 3],
      [null, null, 4],
    ],
  );
  t.deepEqual(
    odd.body.groups.map((g: { name: string; device_count: number }) => [g.name, g.device_count]),
    [['odd', 3]],
  );
  for (const q of ['limit=0', 'limit=201', 'status=fine', 'status=', 'cursor=nope', `cursor=${Buffer.from('g:odd').toString('base64url')}`]) {
    const bad = await registry.call(w, 'GET', `/v1/fleet?${q}`);
    t.is(bad.status, 422, q);
    t.is(typeof bad.body.detail, 'string');
  }
  t.is((await registry.call(w, 'GET', '/v1/fleet?group_id=grp_nope')).status, 404);
});

test('GET /v1/fleet/devices/{id} returns the device, its health history and recent proofs', async (t) => {
  const w = wallet(4);
  const proofIds = [await submit(w, 'arm 1/b'), await submit(w, 'arm 1/b')];
  for (const cpu of [10, 20, 30, 40]) await registry.call(w, 'POST', `/v1/fleet/devices/${enc('arm 1/b')}/health`, { status: 'ok', cpu_percent: cpu });
  const res = await registry.call(w, 'GET', `/v1/fleet/devices/${enc('arm 1/b')}?health_limit=2`);
  t.is(res.status, 200);
  t.true(conforms(c.DeviceDetailResponse, res.body));
  t.is(res.body.device_id, 'arm 1/b');
  t.is(res.body.proof_count, 2);
  // Retention is 3 (HEALTH_HISTORY_LIMIT); the query asked for 2, newest first.
  t.deepEqual(
    res.body.health_history.map((h: { cpu_percent: number }) => h.cpu_percent),
    [40, 30],
  );
  t.is((await registry.call(w, 'GET', `/v1/fleet/devices/${enc('arm 1/b')}?health_limit=10`)).body.health_history.length, 3);
  t.deepEqual(new Set(res.body.recent_proofs.map((p: { proof_id: string }) => p.proof_id)), new Set(proofIds));
  t.is(res.body.last_health.cpu_percent, 40);
  t.is((await registry.call(w, 'GET', '/v1/fleet/devices/nope')).status, 404);
  t.is((await registry.call(w, 'GET', `/v1/fleet/devices/${'x'.repeat(129)}`)).status, 422);
  t.is((await registry.call(w, 'GET', `/v1/fleet/devices/${enc('arm 1/b')}?health_limit=0`)).status, 422);
});

test('PATCH /v1/fleet/devices/{id}/name renames with the name rules', async (t) => {
  const w = wallet(5);
  await submit(w, 'arm-1');
  const res = await registry.call(w, 'PATCH', '/v1/fleet/devices/arm-1/name', { name: '  Welder ✓  ' });
  t.is(res.status, 200);
  t.true(conforms(c.DeviceResponse, res.body));
  t.like(res.body, { device_id: 'arm-1', name: 'Welder ✓', custom_name: true, proof_count: 1 });
  t.is((await registry.call(w, 'GET', '/v1/fleet')).body.devices[0].name, 'Welder ✓');
  for (const [name, words] of [
    ['   ', 'empty'],
    ['x'.repeat(101), '100'],
    ['a\nb', 'control'],
    [42, 'string'],
    [undefined, 'required'],
  ] as const) {
    const bad = await registry.call(w, 'PATCH', '/v1/fleet/devices/arm-1/name', name === undefined ? {} : { name });
    t.is(bad.status, 422, String(name));
    t.true(bad.body.detail.includes('name') && bad.body.detail.includes(words), bad.body.detail);
  }
  t.is((await registry.call(w, 'PATCH', '/v1/fleet/devices/nope/name', { name: 'x' })).status, 404);
  t.is((await registry.call(w, 'PATCH', '/v1/fleet/devices/arm-1/name', 'not json', { 'content-type': 'text/plain' })).status, 415);
});

test('POST /v1/fleet/devices/{id}/health validates readings and creates new devices', async (t) => {
  const w = wallet(6);
  const body = {
    status: 'degraded',
    cpu_percent: 99.5,
    memory_percent: 0,
    battery_percent: 100,
    temperature_c: -20.5,
    uptime_s: 12,
    message: 'fan',
    metrics: { fan_rpm: 0 },
  };
  const res = await registry.call(w, 'POST', '/v1/fleet/devices/new-bot/health', body);
  t.is(res.status, 201);
  t.true(conforms(c.HealthRecordedResponse, res.body));
  t.deepEqual(res.body.report, { ...body, received_at: new Date(now).toISOString() });
  t.like(res.body.device, { device_id: 'new-bot', proof_count: 0, status: 'degraded', last_proof_at: null });
  const nulls = await registry.call(w, 'POST', '/v1/fleet/devices/new-bot/health', { status: 'ok', cpu_percent: null });
  t.is(nulls.status, 201);
  t.is(nulls.body.report.cpu_percent, null);
  const bad: Array<[Record<string, unknown>, string]> = [
    [{ status: 'fine' }, 'status'],
    [{}, 'status'],
    [{ status: 'ok', cpu_percent: 100.1 }, 'cpu_percent'],
    [{ status: 'ok', memory_percent: -0.5 }, 'memory_percent'],
    [{ status: 'ok', battery_percent: 101 }, 'battery_percent'],
    [{ status: 'ok', battery_percent: '50' }, 'battery_percent'],
    [{ status: 'ok', temperature_c: -300 }, 'temperature_c'],
    [{ status: 'ok', uptime_s: -1 }, 'uptime_s'],
    [{ status: 'ok', message: 'm'.repeat(1001) }, 'message'],
    [{ status: 'ok', metrics: { a: 'b' } }, 'metrics'],
    [{ status: 'ok', metrics: [1] }, 'metrics'],
  ];
  for (const [report, field] of bad) {
    const r = await registry.call(w, 'POST', '/v1/fleet/devices/new-bot/health', report);
    t.is(r.status, 422, JSON.stringify(report));
    t.true(r.body.detail.includes(field), r.body.detail);
  }
  t.is((await registry.call(w, 'GET', '/v1/fleet/devices/new-bot?health_limit=200')).body.health_history.length, 2);
  const metrics = await registry.call(null, 'GET', '/metrics');
  t.regex(metrics.body, /fleet_health_reports_total\{status="degraded"\} \d+/);
  // No scrape runs a query over every wallet's devices.
  t.notRegex(metrics.body, /fleet_devices/);
});

test('groups: create, list, get, assign, move, unassign, delete', async (t) => {
  const w = wallet(7);
  for (const id of ['a', 'b', 'c']) await submit(w, id);
  const lyon = await registry.call(w, 'POST', '/v1/fleet/groups', { name: ' Lyon ', description: 'north' });
  t.is(lyon.status, 201);
  t.true(conforms(c.GroupResponse, lyon.body));
  t.like(lyon.body, { name: 'Lyon', description: 'north', device_ids: [], device_count: 0, created_at: new Date(now).toISOString() });
  t.is(lyon.headers.get('location'), `/v1/fleet/groups/${lyon.body.group_id}`);
  const dup = await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'Lyon' });
  t.is(dup.status, 409);
  t.regex(dup.body.detail, /Lyon/);
  t.is((await registry.call(w, 'POST', '/v1/fleet/groups', { name: '' })).status, 422);
  t.is((await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'x', description: 'd'.repeat(501) })).status, 422);
  const paris = await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'Paris', description: null });
  const L = lyon.body.group_id;
  const P = paris.body.group_id;

  const assigned = await registry.call(w, 'POST', `/v1/fleet/groups/${L}/assign`, { device_ids: ['a', 'b', 'a'] });
  t.is(assigned.status, 200);
  t.true(conforms(c.MembershipResponse, assigned.body));
  t.deepEqual(assigned.body, { group: { ...lyon.body, device_ids: ['a', 'b'], device_count: 2 }, changed: 2 });
  const moved = await registry.call(w, 'POST', `/v1/fleet/groups/${P}/assign`, { device_ids: ['b', 'c'] });
  t.deepEqual(moved.body.group.device_ids, ['b', 'c']);
  t.deepEqual((await registry.call(w, 'GET', `/v1/fleet/groups/${L}`)).body.device_ids, ['a']);
  const unknown = await registry.call(w, 'POST', `/v1/fleet/groups/${L}/assign`, { device_ids: ['c', 'ghost', 'phantom'] });
  t.is(unknown.status, 404);
  t.is(unknown.body.detail, 'unknown device ids: ghost, phantom');
  t.deepEqual(unknown.body.device_ids, ['ghost', 'phantom']);
  t.is((await registry.call(w, 'GET', '/v1/fleet/devices/c')).body.group_id, P);
  for (const body of [{}, { device_ids: [] }, { device_ids: 'a' }, { device_ids: [''] }, { device_ids: Array.from({ length: 1001 }, (_, i) => `d${i}`) }]) {
    t.is((await registry.call(w, 'POST', `/v1/fleet/groups/${L}/assign`, body)).status, 422, JSON.stringify(body).slice(0, 50));
  }

  const list = await registry.call(w, 'GET', '/v1/fleet/groups?limit=1');
  t.true(conforms(c.GroupListResponse, list.body));
  t.deepEqual(
    list.body.items.map((g: { name: string; device_ids: string[] }) => [g.name, g.device_ids]),
    [['Lyon', ['a']]],
  );
  const next = await registry.call(w, 'GET', `/v1/fleet/groups?limit=1&cursor=${list.body.next_cursor}`);
  t.deepEqual(
    next.body.items.map((g: { name: string; device_ids: string[] }) => [g.name, g.device_ids]),
    [['Paris', ['b', 'c']]],
  );
  t.is(next.body.next_cursor, null);
  t.is((await registry.call(w, 'GET', '/v1/fleet/groups?cursor=bad!')).status, 422);

  const out = await registry.call(w, 'POST', `/v1/fleet/groups/${P}/unassign`, { device_ids: ['b', 'a'] });
  t.is(out.status, 200);
  t.deepEqual([out.body.changed, out.body.group.device_ids], [1, ['c']]);
  t.is((await registry.call(w, 'POST', `/v1/fleet/groups/${P}/unassign`, { device_ids: ['nope'] })).status, 404);

  const deleted = await registry.call(w, 'DELETE', `/v1/fleet/groups/${P}`);
  t.is(deleted.status, 200);
  t.true(conforms(c.DeleteGroupResponse, deleted.body));
  t.deepEqual(deleted.body, { group_id: P, deleted: true, unassigned: 1 });
  t.is((await registry.call(w, 'DELETE', `/v1/fleet/groups/${P}`)).status, 404);
  t.is((await registry.call(w, 'GET', `/v1/fleet/groups/${P}`)).status, 404);
  const c1 = await registry.call(w, 'GET', '/v1/fleet/devices/c');
  t.like(c1.body, { group_id: null, proof_count: 1 });
  const overview = await registry.call(w, 'GET', '/v1/fleet');
  t.is(overview.body.summary.total_devices, 3);
  t.is(overview.body.summary.group_count, 1);
});

test("wallet isolation: another wallet never reads, renames, reports for, groups or deletes A's objects", async (t) => {
  const a = wallet(8);
  const b = wallet(9);
  await submit(a, 'secret-bot');
  const ga = await registry.call(a, 'POST', '/v1/fleet/groups', { name: 'A team' });
  await registry.call(a, 'POST', `/v1/fleet/groups/${ga.body.group_id}/assign`, { device_ids: ['secret-bot'] });
  const gb = await registry.call(b, 'POST', '/v1/fleet/groups', { name: 'B team' });
  const G = ga.body.group_id;

  const overview = await registry.call(b, 'GET', '/v1/fleet');
  t.deepEqual([overview.body.devices, overview.body.groups.map((g: { name: string }) => g.name), overview.body.summary.total_devices], [[], ['B team'], 0]);
  t.is((await registry.call(b, 'GET', `/v1/fleet?group_id=${G}`)).status, 404);
  t.is((await registry.call(b, 'GET', '/v1/fleet/devices/secret-bot')).status, 404);
  t.is((await registry.call(b, 'PATCH', '/v1/fleet/devices/secret-bot/name', { name: 'pwned' })).status, 404);
  t.deepEqual(
    (await registry.call(b, 'GET', '/v1/fleet/groups')).body.items.map((g: { name: string }) => g.name),
    ['B team'],
  );
  t.is((await registry.call(b, 'GET', `/v1/fleet/groups/${G}`)).status, 404);
  t.is((await registry.call(b, 'POST', `/v1/fleet/groups/${G}/assign`, { device_ids: ['secret-bot'] })).status, 404);
  t.is((await registry.call(b, 'POST', `/v1/fleet/groups/${G}/unassign`, { device_ids: ['secret-bot'] })).status, 404);
  const steal = await registry.call(b, 'POST', `/v1/fleet/groups/${gb.body.group_id}/assign`, { device_ids: ['secret-bot'] });
  t.is(steal.status, 404);
  t.deepEqual(steal.body.device_ids, ['secret-bot']);
  t.is((await registry.call(b, 'DELETE', `/v1/fleet/groups/${G}`)).status, 404);
  // A report from B for the same id is B's own device; A's is untouched.
  t.is((await registry.call(b, 'POST', '/v1/fleet/devices/secret-bot/health', { status: 'error' })).status, 201);
  const mine = await registry.call(a, 'GET', '/v1/fleet/devices/secret-bot');
  t.like(mine.body, { name: 'secret-bot', group_id: G, proof_count: 1, last_health: null, status: 'online' });
  t.is((await registry.call(b, 'GET', '/v1/fleet/devices/secret-bot')).body.proof_count, 0);
  t.deepEqual((await registry.call(a, 'GET', `/v1/fleet/groups/${G}`)).body.device_ids, ['secret-bot']);
});

test('fleet routes need a credential', async (t) => {
  const G = 'grp_000000000000000000000000';
  for (const [method, path] of [
    ['GET', '/v1/fleet'],
    ['GET', '/v1/fleet/devices/x'],
    ['PATCH', '/v1/fleet/devices/x/name'],
    ['POST', '/v1/fleet/devices/x/health'],
    ['GET', '/v1/fleet/groups'],
    ['POST', '/v1/fleet/groups'],
    ['GET', `/v1/fleet/groups/${G}`],
    ['POST', `/v1/fleet/groups/${G}/assign`],
    ['POST', `/v1/fleet/groups/${G}/unassign`],
    ['DELETE', `/v1/fleet/groups/${G}`],
    ['GET', `/v1/stats/wallet/${WALLET_A}`],
  ] as const) {
    const res = await registry.call(null, method, path, method === 'GET' || method === 'DELETE' ? undefined : {});
    t.is(res.status, 401, `${method} ${path}`);
    t.is(typeof res.body.detail, 'string');
  }
  // The wallet header must match the credential.
  const mismatch = await registry.call(WALLET_A, 'GET', '/v1/fleet', undefined, { 'x-wallet-address': WALLET_B });
  t.is(mismatch.status, 403);
});

test('concurrent submissions keep proof counts exact', async (t) => {
  const w = wallet(10);
  const envelopes = Array.from({ length: 36 }, (_, i) => anEnvelope({ taskId: `race-${i}`, robotId: `bot-${i % 3}` }));
  // Every envelope twice, all at once.
  const replies = await Promise.all([...envelopes, ...envelopes].map((envelope) => registry.call(w, 'POST', '/v1/proofs', { envelope })));
  t.true(replies.every((r) => r.status === 200));
  const overview = await registry.call(w, 'GET', '/v1/fleet');
  t.deepEqual(
    overview.body.devices.map((d: { device_id: string; proof_count: number }) => [d.device_id, d.proof_count]),
    [
      ['bot-0', 12],
      ['bot-1', 12],
      ['bot-2', 12],
    ],
  );
});

test('the OpenAPI document describes the fleet and statistics routes', async (t) => {
  const res = await registry.call(null, 'GET', '/openapi.json');
  const result = await new Validator().validate(res.body);
  t.true(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  for (const [path, method] of [
    ['/v1/fleet', 'get'],
    ['/v1/fleet/devices/{device_id}', 'get'],
    ['/v1/fleet/devices/{device_id}/name', 'patch'],
    ['/v1/fleet/devices/{device_id}/health', 'get'],
    ['/v1/fleet/groups', 'get'],
    ['/v1/fleet/groups', 'post'],
    ['/v1/fleet/groups/{group_id}', 'get'],
    ['/v1/fleet/groups/{group_id}', 'delete'],
    ['/v1/fleet/groups/{group_id}/assign', 'post'],
    ['/v1/fleet/groups/{group_id}/unassign', 'post'],
    ['/v1/stats/wallet/{addr}', 'get'],
  ] as const) {
    const op = res.body.paths[path]?.[method];
    t.truthy(op, `${method} ${path}`);
    t.deepEqual(op.security, [{ walletJwt: [] }]);
  }
  // A robot reports its own health with an API key; the status is optional (derived when absent).
  const report = res.body.paths['/v1/fleet/devices/{device_id}/health'].post;
  t.deepEqual(report.security, [{ apiKey: ['health:write'] }, { walletJwt: [] }]);
  t.is(report['x-required-scope'], 'health:write');
  t.regex(report.responses['403'].description, /insufficient_scope.*robot_not_allowed/);
  const health = report.requestBody.content['application/json'].schema;
  t.deepEqual([health.properties.cpu_percent.minimum, health.properties.cpu_percent.maximum], [0, 100]);
  t.is(health.required, undefined);
  t.truthy(health.properties.custom_metrics && health.properties.battery_charging && health.properties.network_type);
});

test('real fleet and statistics responses match the schemas the OpenAPI document gives them', async (t) => {
  const check = openApiConformance((await registry.call(null, 'GET', '/openapi.json')).body);
  const w = wallet(90);
  await submit(w, 'conf-arm');
  const group = await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'conformance', description: 'd' });
  const groupId = group.body.group_id as string;
  const calls: Array<[string, string, string, unknown?]> = [
    ['/v1/fleet', 'GET', '/v1/fleet'],
    ['/v1/fleet/devices/{device_id}', 'GET', '/v1/fleet/devices/conf-arm'],
    ['/v1/fleet/devices/{device_id}', 'GET', '/v1/fleet/devices/none-such'],
    ['/v1/fleet/devices/{device_id}/name', 'PATCH', '/v1/fleet/devices/conf-arm/name', { name: 'Arm' }],
    [
      '/v1/fleet/devices/{device_id}/health',
      'POST',
      '/v1/fleet/devices/conf-arm/health',
      { status: 'degraded', cpu_percent: 50, message: 'hot', metrics: { fan_rpm: 900 } },
    ],
    ['/v1/fleet/devices/{device_id}/health', 'POST', '/v1/fleet/devices/conf-arm/health', { status: 'ok', cpu_percent: 101 }],
    ['/v1/fleet/groups', 'GET', '/v1/fleet/groups'],
    ['/v1/fleet/groups/{group_id}', 'GET', `/v1/fleet/groups/${groupId}`],
    ['/v1/fleet/groups/{group_id}/assign', 'POST', `/v1/fleet/groups/${groupId}/assign`, { device_ids: ['conf-arm'] }],
    ['/v1/fleet/groups/{group_id}/assign', 'POST', `/v1/fleet/groups/${groupId}/assign`, { device_ids: ['nobody'] }],
    ['/v1/fleet/groups/{group_id}/unassign', 'POST', `/v1/fleet/groups/${groupId}/unassign`, { device_ids: ['conf-arm'] }],
    ['/v1/stats/wallet/{addr}', 'GET', `/v1/stats/wallet/${w}`],
    ['/v1/stats/wallet/{addr}', 'GET', `/v1/stats/wallet/${wallet(91)}`],
    ['/v1/fleet/groups/{group_id}', 'DELETE', `/v1/fleet/groups/${groupId}`],
  ];
  t.is(check('/v1/fleet/groups', 'POST', group.status, group.body), null);
  for (const [path, method, url, body] of calls) {
    const res = await registry.call(w, method, url, body);
    t.is(check(path, method, res.status, res.body), null);
  }
});
