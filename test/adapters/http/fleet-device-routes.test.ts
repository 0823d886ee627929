import test from 'ava';
import * as c from '../../../src/adapters/http/codecs/fleet.codecs.js';
import type { Clock } from '../../../src/application/ports/clock.js';
import { anEnvelope } from '../../support/mothers.js';
import type { TestRegistry } from '../../support/registry.js';
import { conforms } from '../../support/conforms.js';
import { enc, MIN, startFleetRegistry, submitter, wallet } from './fleet-routes-support.js';

// A clock the tests move: statuses derive from it.
let now = Date.parse('2026-11-20T10:30:00Z');
const clock: Clock = { nowMs: () => now };

let registry: TestRegistry;
test.before(async () => {
  registry = await startFleetRegistry(clock);
});
test.after.always(async () => registry?.close());
const submit = submitter(() => registry);

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
