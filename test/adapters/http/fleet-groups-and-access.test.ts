import test from 'ava';
import * as c from '../../../src/adapters/http/codecs/fleet.codecs.js';
import type { Clock } from '../../../src/application/ports/clock.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import type { TestRegistry } from '../../support/registry.js';
import { conforms } from '../../support/conforms.js';
import { startFleetRegistry, submitter, wallet } from './fleet-routes-support.js';

// The tests' clock: statuses derive from it.
const now = Date.parse('2026-11-20T10:30:00Z');
const clock: Clock = { nowMs: () => now };

let registry: TestRegistry;
test.before(async () => {
  registry = await startFleetRegistry(clock);
});
test.after.always(async () => registry?.close());
const submit = submitter(() => registry);

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
