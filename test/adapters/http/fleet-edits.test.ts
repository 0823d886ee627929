import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import * as c from '../../../src/adapters/http/codecs/fleet.codecs.js';
import type { Clock } from '../../../src/application/ports/clock.js';
import { anEnvelope } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

/** Hiding, ordering, describing and typing devices, and editing groups, through /v1. */
const now = Date.parse('2026-11-20T10:30:00Z');
const clock: Clock = { nowMs: () => now };

let registry: TestRegistry;
test.before(async () => {
  registry = await startTestRegistry({ clock });
});
test.after.always(async () => registry?.close());

const conforms = (codec: { decode(u: unknown): unknown }, body: unknown) => isRight(codec.decode(body) as never);
const wallet = (n: number) => `EditsWallet${String(n).padStart(3, '0')}${'1'.repeat(33)}`;
let seq = 0;
const submit = async (w: string, robotId: string) => {
  const res = await registry.call(w, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: `e-${++seq}`, robotId }) });
  if (res.status !== 200) throw new Error(`submit: ${res.status} ${JSON.stringify(res.body)}`);
};
const ids = (body: { devices: Array<{ device_id: string }> }) => body.devices.map((d) => d.device_id);

test('DELETE hides a device: gone from the overview, counts and its group; its proofs stay; its next proof brings it back', async (t) => {
  const w = wallet(1);
  for (const r of ['arm-1', 'arm-1', 'arm-2']) await submit(w, r);
  const group = await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'Bay' });
  await registry.call(w, 'POST', `/v1/fleet/groups/${group.body.group_id}/assign`, { device_ids: ['arm-1', 'arm-2'] });

  const hidden = await registry.call(w, 'DELETE', '/v1/fleet/devices/arm-1');
  t.is(hidden.status, 200);
  t.true(conforms(c.HideDeviceResponse, hidden.body));
  t.deepEqual(hidden.body, { device_id: 'arm-1', hidden: true, hidden_at: new Date(now).toISOString() });
  const overview = await registry.call(w, 'GET', '/v1/fleet');
  t.deepEqual(ids(overview.body), ['arm-2']);
  t.is(overview.body.summary.total_devices, 1);
  t.deepEqual((await registry.call(w, 'GET', `/v1/fleet/groups/${group.body.group_id}`)).body.device_ids, ['arm-2']);
  t.is((await registry.call(w, 'GET', '/v1/proofs?robot_id=arm-1')).body.items.length, 2);
  const device = await registry.call(w, 'GET', '/v1/fleet/devices/arm-1');
  t.like(device.body, { hidden: true, proof_count: 2, group_id: null });
  // Hiding twice is fine; an unknown device, or another wallet's, is 404.
  t.is((await registry.call(w, 'DELETE', '/v1/fleet/devices/arm-1')).status, 200);
  t.is((await registry.call(w, 'DELETE', '/v1/fleet/devices/ghost')).status, 404);
  t.is((await registry.call(wallet(2), 'DELETE', '/v1/fleet/devices/arm-2')).status, 404);
  t.deepEqual(ids((await registry.call(w, 'GET', '/v1/fleet')).body), ['arm-2']);

  await submit(w, 'arm-1');
  const back = await registry.call(w, 'GET', '/v1/fleet');
  t.deepEqual(ids(back.body), ['arm-1', 'arm-2']);
  t.like(back.body.devices[0], { hidden: false, proof_count: 3, group_id: null });
  // A health report brings a hidden device back too.
  await registry.call(w, 'DELETE', '/v1/fleet/devices/arm-2');
  await registry.call(w, 'POST', '/v1/fleet/devices/arm-2/health', { status: 'ok' });
  t.deepEqual(ids((await registry.call(w, 'GET', '/v1/fleet')).body), ['arm-1', 'arm-2']);
});

test('PATCH /v1/fleet/devices/order sets the overview order; pages follow it', async (t) => {
  const w = wallet(3);
  for (const r of ['a', 'b', 'c', 'd', 'e']) await submit(w, r);
  const res = await registry.call(w, 'PATCH', '/v1/fleet/devices/order', {
    device_orders: [
      { device_id: 'd', sort_order: 0 },
      { device_id: 'b', sort_order: 1 },
      { device_id: 'e', sort_order: 1 },
    ],
  });
  t.is(res.status, 200);
  t.deepEqual(res.body, { updated: 3 });
  const first = await registry.call(w, 'GET', '/v1/fleet?limit=2');
  t.deepEqual(ids(first.body), ['d', 'b']);
  t.like(first.body.devices[0], { sort_order: 0 });
  const second = await registry.call(w, 'GET', `/v1/fleet?limit=2&cursor=${first.body.next_cursor}`);
  t.deepEqual(ids(second.body), ['e', 'a']);
  const third = await registry.call(w, 'GET', `/v1/fleet?limit=2&cursor=${second.body.next_cursor}`);
  t.deepEqual(ids(third.body), ['c']);
  t.is(third.body.devices[0].sort_order, null);
  t.is(third.body.next_cursor, null);

  const unknown = await registry.call(w, 'PATCH', '/v1/fleet/devices/order', {
    device_orders: [
      { device_id: 'a', sort_order: 9 },
      { device_id: 'ghost', sort_order: 1 },
    ],
  });
  t.is(unknown.status, 404);
  t.deepEqual(unknown.body.device_ids, ['ghost']);
  t.is((await registry.call(w, 'GET', '/v1/fleet/devices/a')).body.sort_order, null);
  // Another wallet's devices are unknown to it.
  t.is((await registry.call(wallet(4), 'PATCH', '/v1/fleet/devices/order', { device_orders: [{ device_id: 'a', sort_order: 1 }] })).status, 404);
  for (const body of [
    { device_orders: [] },
    { device_orders: [{ device_id: 'a', sort_order: -1 }] },
    { device_orders: [{ device_id: 'a', sort_order: 1.5 }] },
    {
      device_orders: [
        { device_id: 'a', sort_order: 1 },
        { device_id: 'a', sort_order: 2 },
      ],
    },
    {},
  ]) {
    const r = await registry.call(w, 'PATCH', '/v1/fleet/devices/order', body);
    t.is(r.status, 422, JSON.stringify(body));
  }
});

test('PATCH /v1/fleet/devices/{id} names, describes and types a device', async (t) => {
  const w = wallet(5);
  await submit(w, 'arm-1');
  const res = await registry.call(w, 'PATCH', '/v1/fleet/devices/arm-1', { name: ' Welder ', description: 'Left bay\nnear the door', type: 'arm' });
  t.is(res.status, 200);
  t.true(conforms(c.DeviceResponse, res.body));
  t.like(res.body, { device_id: 'arm-1', name: 'Welder', custom_name: true, description: 'Left bay\nnear the door', type: 'arm' });
  const cleared = await registry.call(w, 'PATCH', '/v1/fleet/devices/arm-1', { name: null, type: '' });
  t.like(cleared.body, { name: 'arm-1', custom_name: false, description: 'Left bay\nnear the door', type: null });
  for (const [body, member] of [
    [{}, 'member'],
    [{ type: 'a\nb' }, 'type'],
    [{ type: 't'.repeat(65) }, 'type'],
    [{ description: 'd'.repeat(501) }, 'description'],
    [{ name: '' }, 'name'],
  ] as const) {
    const r = await registry.call(w, 'PATCH', '/v1/fleet/devices/arm-1', body);
    t.is(r.status, 422, JSON.stringify(body));
    t.true(String(r.body.detail).includes(member), r.body.detail);
  }
  t.like((await registry.call(w, 'GET', '/v1/fleet/devices/arm-1')).body, { name: 'arm-1', type: null, description: 'Left bay\nnear the door' });
  t.is((await registry.call(wallet(6), 'PATCH', '/v1/fleet/devices/arm-1', { name: 'mine' })).status, 404);
});

test('PATCH /v1/fleet/groups/{id} renames a group and sets its description and colour', async (t) => {
  const w = wallet(7);
  const made = await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'Lyon', color: '#ABC' });
  t.is(made.status, 201);
  t.is(made.body.color, '#aabbcc');
  await registry.call(w, 'POST', '/v1/fleet/groups', { name: 'Paris' });
  const id = made.body.group_id;
  const res = await registry.call(w, 'PATCH', `/v1/fleet/groups/${id}`, { name: 'Lyon east', description: 'Bay 3', color: '#2F80ED' });
  t.is(res.status, 200);
  t.true(conforms(c.GroupResponse, res.body));
  t.like(res.body, { group_id: id, name: 'Lyon east', description: 'Bay 3', color: '#2f80ed', device_count: 0, device_ids: [] });
  t.like((await registry.call(w, 'PATCH', `/v1/fleet/groups/${id}`, { color: null, description: null })).body, {
    name: 'Lyon east',
    description: null,
    color: null,
  });
  const taken = await registry.call(w, 'PATCH', `/v1/fleet/groups/${id}`, { name: 'Paris' });
  t.is(taken.status, 409);
  for (const body of [{}, { color: 'blue' }, { color: '#12345' }, { name: '' }])
    t.is((await registry.call(w, 'PATCH', `/v1/fleet/groups/${id}`, body)).status, 422, JSON.stringify(body));
  t.is((await registry.call(wallet(8), 'PATCH', `/v1/fleet/groups/${id}`, { name: 'stolen' })).status, 404);
  t.like((await registry.call(w, 'GET', `/v1/fleet/groups/${id}`)).body, { name: 'Lyon east' });
  const overview = await registry.call(w, 'GET', '/v1/fleet');
  t.true(conforms(c.OverviewResponse, overview.body));
  t.deepEqual(
    overview.body.groups.map((g: { name: string; color: string | null }) => [g.name, g.color]),
    [
      ['Lyon east', null],
      ['Paris', null],
    ],
  );
});
