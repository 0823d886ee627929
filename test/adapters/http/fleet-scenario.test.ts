import test, { type ExecutionContext } from 'ava';
import { postgresSchemaUrl } from '../../support/databases.js';
import { anEnvelope } from '../../support/mothers.js';
import { fixedClock, startTestRegistry, type TestRegistry } from '../../support/registry.js';

/**
 * The acceptance scenario, as an independent client would run it, on SQLite and on
 * PostgreSQL: build a fleet from proofs, report health, rename, group, regroup, delete a
 * group, and read consistent overview, device and statistics figures after each step.
 */
const W = 'ScenarioWallet11111111111111111111111111111';
const clock = fixedClock('2026-11-20T10:30:00Z');

async function scenario(t: ExecutionContext, registry: TestRegistry): Promise<void> {
  const call = (method: string, path: string, body?: unknown) => registry.call(W, method, path, body);
  const check = async (
    step: string,
    expected: {
      devices: Record<string, { count: number; status: string; group: string | null; name?: string }>;
      groups: Record<string, string[]>;
      proofs: number;
    },
  ) => {
    const overview = (await call('GET', '/v1/fleet')).body;
    const stats = (await call('GET', `/v1/stats/wallet/${W}`)).body;
    const groups = (await call('GET', '/v1/fleet/groups')).body.items as Array<{ group_id: string; name: string; device_ids: string[] }>;
    const groupName = new Map(groups.map((g) => [g.group_id, g.name]));
    const seen = Object.fromEntries(
      (overview.devices as Array<{ device_id: string; proof_count: number; status: string; group_id: string | null; name: string }>).map((d) => [
        d.device_id,
        {
          count: d.proof_count,
          status: d.status,
          group: d.group_id === null ? null : (groupName.get(d.group_id) ?? '?'),
          ...(d.name !== d.device_id ? { name: d.name } : {}),
        },
      ]),
    );
    t.deepEqual(seen, expected.devices, step);
    t.deepEqual(Object.fromEntries(groups.map((g) => [g.name, g.device_ids])), expected.groups, step);
    // Every device read alone agrees with the overview.
    for (const d of overview.devices as Array<{ device_id: string }>) {
      const { health_history: _h, recent_proofs: recent, ...alone } = (await call('GET', `/v1/fleet/devices/${encodeURIComponent(d.device_id)}`)).body;
      t.deepEqual(alone, d, `${step}: ${d.device_id}`);
      t.is(recent.length, Math.min(10, (d as unknown as { proof_count: number }).proof_count), step);
    }
    const total = Object.keys(expected.devices).length;
    t.is(overview.summary.total_devices, total, step);
    t.is(overview.summary.group_count, Object.keys(expected.groups).length, step);
    t.is(stats.devices.total, total, step);
    t.deepEqual(stats.devices.by_status, overview.summary.by_status, step);
    t.is(stats.groups.total, Object.keys(expected.groups).length, step);
    t.is(stats.proofs.total, expected.proofs, step);
    const byGroup = Object.fromEntries(
      (overview.summary.by_group as Array<{ name: string | null; device_count: number }>).map((g) => [g.name ?? '(none)', g.device_count]),
    );
    const expectedByGroup: Record<string, number> = Object.fromEntries(Object.entries(expected.groups).map(([name, ids]) => [name, ids.length]));
    const ungrouped = Object.values(expected.devices).filter((d) => d.group === null).length;
    if (ungrouped > 0) expectedByGroup['(none)'] = ungrouped;
    t.deepEqual(byGroup, expectedByGroup, step);
  };

  let n = 0;
  for (const robot of ['r1', 'r1', 'r1', 'r2', 'r2', 'r3']) {
    t.is((await call('POST', '/v1/proofs', { envelope: anEnvelope({ taskId: `s-${n++}`, robotId: robot }) })).status, 200);
  }
  await check('after proofs', {
    devices: {
      r1: { count: 3, status: 'online', group: null },
      r2: { count: 2, status: 'online', group: null },
      r3: { count: 1, status: 'online', group: null },
    },
    groups: {},
    proofs: 6,
  });

  t.is((await call('POST', '/v1/fleet/devices/r2/health', { status: 'degraded', battery_percent: 12 })).status, 201);
  t.is((await call('POST', '/v1/fleet/devices/r4/health', { status: 'ok' })).status, 201);
  t.is((await call('PATCH', '/v1/fleet/devices/r1/name', { name: 'Welder' })).status, 200);
  await check('after health and rename', {
    devices: {
      r1: { count: 3, status: 'online', group: null, name: 'Welder' },
      r2: { count: 2, status: 'degraded', group: null },
      r3: { count: 1, status: 'online', group: null },
      r4: { count: 0, status: 'online', group: null },
    },
    groups: {},
    proofs: 6,
  });

  const north = (await call('POST', '/v1/fleet/groups', { name: 'North' })).body.group_id as string;
  const south = (await call('POST', '/v1/fleet/groups', { name: 'South' })).body.group_id as string;
  t.is((await call('POST', `/v1/fleet/groups/${north}/assign`, { device_ids: ['r1', 'r2'] })).status, 200);
  t.is((await call('POST', `/v1/fleet/groups/${south}/assign`, { device_ids: ['r2', 'r4'] })).status, 200);
  await check('after grouping and regrouping', {
    devices: {
      r1: { count: 3, status: 'online', group: 'North', name: 'Welder' },
      r2: { count: 2, status: 'degraded', group: 'South' },
      r3: { count: 1, status: 'online', group: null },
      r4: { count: 0, status: 'online', group: 'South' },
    },
    groups: { North: ['r1'], South: ['r2', 'r4'] },
    proofs: 6,
  });

  t.is((await call('POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 's-late', robotId: 'r4' }) })).status, 200);
  t.deepEqual((await call('DELETE', `/v1/fleet/groups/${south}`)).body, { group_id: south, deleted: true, unassigned: 2 });
  await check('after deleting a group', {
    devices: {
      r1: { count: 3, status: 'online', group: 'North', name: 'Welder' },
      r2: { count: 2, status: 'degraded', group: null },
      r3: { count: 1, status: 'online', group: null },
      r4: { count: 1, status: 'online', group: null },
    },
    groups: { North: ['r1'] },
    proofs: 7,
  });
}

test('the fleet scenario on SQLite', async (t) => {
  const registry = await startTestRegistry({ clock });
  t.teardown(() => registry.close());
  await scenario(t, registry);
});

test('the fleet scenario on PostgreSQL', async (t) => {
  const { url } = await postgresSchemaUrl(t, 'fleet_scenario');
  const registry = await startTestRegistry({ clock, env: { DATABASE_URL: url } });
  t.teardown(() => registry.close());
  t.is(registry.database.dialect, 'postgres');
  await scenario(t, registry);
});
