import type { ExecutionContext } from 'ava';
import type * as t from 'io-ts';
import * as c from '../../src/adapters/http/acto/acto.codecs.js';
import { envelopeTextOf, sdkEnvelopes } from '../support/acto.js';
import { aWallet, MINT, type TestWallet } from '../support/identity.js';
import type { IdentityApp, Reply } from '../support/identity-app.js';

/**
 * What the ACTO SDK (`actobotics` 1.0.0) needs of `/acto`, asked exactly as its client asks:
 * its headers on every request (an API key, X-Wallet-Address, Content-Type also on GET and
 * DELETE, its User-Agent), its bodies as Python's JSON writes them, and every answer checked
 * against the members and types its pydantic models require, and for being true.
 */
export async function actoPersonalityContract(t: ExecutionContext, app: IdentityApp): Promise<void> {
  const alice = aWallet(41);
  const bob = aWallet(42);
  await app.fund(alice, '60000');
  await app.fund(bob, '60000');
  const a = sdk(app, (await app.apiKey(alice)).key, alice);
  const b = sdk(app, (await app.apiKey(bob)).key, bob);
  const shaped = <C extends t.Mixed>(codec: C, res: Reply, what: string): t.TypeOf<C> => {
    t.true(res.status < 300, `${what}: ${res.status} ${JSON.stringify(res.body)}`);
    t.true(codec.is(res.body), `${what}: ${JSON.stringify(res.body).slice(0, 400)}`);
    return res.body as t.TypeOf<C>;
  };

  // health and the document need no credential.
  const health = await app.call('GET', '/acto/health');
  shaped(c.Health, health, 'health');
  t.true(health.body.ok);
  const doc = await app.call('GET', '/acto/openapi.json');
  t.is(doc.status, 200);
  const actoPaths = Object.keys(doc.body.paths as object);
  t.true(actoPaths.length >= 19 && actoPaths.every((p) => p.startsWith('/acto/')), actoPaths.join(' '));
  t.false(
    Object.keys((await app.call('GET', '/openapi.json')).body.paths as object).some((p) => p.startsWith('/acto')),
    'nothing of /acto in the native document',
  );

  // submit_proof: every envelope the SDK made, as the body its client sent.
  const cases = sdkEnvelopes();
  const valid = cases.filter((x) => x.expect.valid);
  for (const x of cases) {
    const res = await a.call('POST', '/v1/proofs', x.body);
    if (x.expect.valid) t.is(shaped(c.SubmitResponse, res, x.name).proof_id, x.expect.proof_id!, x.name);
    else {
      t.is(res.status, 422, x.name);
      t.is(typeof res.body.detail, 'string', x.name);
    }
  }

  // get_proof gives the envelope as submitted.
  for (const x of valid) {
    const got = shaped(c.ProofResponse, await a.call('GET', `/v1/proofs/${x.expect.proof_id}`), `get ${x.name}`);
    t.deepEqual(got.envelope, JSON.parse(envelopeTextOf(x.body)), x.name);
  }
  t.is((await b.call('GET', `/v1/proofs/${valid[0]!.expect.proof_id}`)).status, 404, "another wallet's proof is not found");

  // list_proofs(limit)
  const listed = shaped(c.ProofListResponse, await a.call('GET', '/v1/proofs?limit=3'), 'list');
  t.is(listed.items.length, 3);
  t.is(shaped(c.ProofListResponse, await b.call('GET', '/v1/proofs?limit=50'), 'list of another wallet').items.length, 0);

  // search_proofs: the SDK always sends limit, offset, sort_field and sort_order.
  const search = async (who: typeof a, body: string) => shaped(c.SearchResponse, await who.call('POST', '/v1/proofs/search', body), `search ${body}`);
  const all = await search(a, '{"limit": 50, "offset": 0, "sort_field": "created_at", "sort_order": "desc"}');
  t.is(all.total, valid.length);
  t.false(all.has_more);
  const arm1 = valid.filter((x) => JSON.parse(envelopeTextOf(x.body)).payload.subject.robot_id === 'arm-1');
  const filtered = await search(a, '{"limit": 50, "offset": 0, "sort_field": "created_at", "sort_order": "desc", "robot_id": "arm-1"}');
  t.is(filtered.total, arm1.length);
  t.true(filtered.items.length > 0 && filtered.items.every((i) => i.robot_id === 'arm-1'), 'a filter filters');
  const first = await search(a, '{"limit": 3, "offset": 0, "sort_field": "created_at", "sort_order": "desc"}');
  const second = await search(a, '{"limit": 3, "offset": 3, "sort_field": "created_at", "sort_order": "desc"}');
  t.deepEqual([first.offset, first.limit, first.has_more, second.offset], [0, 3, true, 3]);
  t.deepEqual(
    [...first.items, ...second.items].map((i) => i.proof_id),
    all.items.slice(0, 6).map((i) => i.proof_id),
    'offset paging pages',
  );
  const ascending = await search(a, '{"limit": 50, "offset": 0, "sort_field": "created_at", "sort_order": "asc"}');
  t.deepEqual(
    ascending.items.map((i) => i.proof_id),
    [...all.items].reverse().map((i) => i.proof_id),
  );
  t.is((await search(b, '{"limit": 50, "offset": 0, "sort_field": "created_at", "sort_order": "desc"}')).total, 0);
  for (const field of ['task_id', 'robot_id', 'payload_hash'] as const) {
    const sorted = await search(a, `{"limit": 50, "offset": 0, "sort_field": "${field}", "sort_order": "asc"}`);
    const keys = sorted.items.map((i) => (field === 'payload_hash' ? i.proof_id : (i[field] ?? '')));
    t.deepEqual(keys, [...keys].sort(), `sorted by ${field}`);
  }

  // verify and verify_batch: reason is a string, "ok" when valid.
  for (const x of cases) {
    const v = shaped(c.VerifyResponse, await a.call('POST', '/v1/verify', x.body), `verify ${x.name}`);
    t.is(v.valid, x.expect.valid, x.name);
    if (x.expect.valid) t.is(v.reason, 'ok');
  }
  const batch = shaped(
    c.BatchResponse,
    await a.call('POST', '/v1/verify/batch', `{"envelopes": [${cases.map((x) => envelopeTextOf(x.body)).join(', ')}]}`),
    'batch',
  );
  t.deepEqual(
    batch.results.map((r) => r.valid),
    cases.map((x) => x.expect.valid),
  );
  t.deepEqual(
    batch.results.map((r) => r.payload_hash),
    cases.map((x) => x.expect.proof_id ?? null),
  );
  t.deepEqual([batch.total, batch.valid_count, batch.invalid_count], [cases.length, valid.length, cases.length - valid.length]);

  // score
  const score = shaped(c.ScoreResponse, await a.call('POST', '/v1/score', valid[1]!.body), 'score');
  t.true(score.score >= 0 && score.score <= 1);

  // get_wallet_stats: the client's own wallet; another's is refused.
  const stats = shaped(c.StatsResponse, await a.call('GET', `/v1/stats/wallet/${alice.address}`), 'stats');
  t.is(stats.wallet_address, alice.address);
  t.is(stats.total_proofs_submitted, valid.length);
  t.is(typeof stats.first_activity, 'string');
  // Every verify and batch-verify call above counted, one per envelope, passed or failed.
  t.deepEqual(
    [stats.successful_verifications, stats.failed_verifications, stats.total_verifications],
    [2 * valid.length, 2 * (cases.length - valid.length), 2 * cases.length],
  );
  t.is(stats.proofs_by_robot?.['arm-1'], arm1.length);
  t.is(stats.activity_timeline?.length, 30);
  t.is((await a.call('GET', `/v1/stats/wallet/${bob.address}`)).status, 403);

  // check_access, as the SDK sends it (rpc_url "").
  const access = shaped(
    c.AccessCheckResponse,
    await a.call('POST', '/v1/access/check', `{"rpc_url": "", "owner": "${alice.address}", "mint": "${MINT}", "minimum": 50000}`),
    'access',
  );
  t.true(access.allowed);
  t.is(access.balance, 60000);

  // fleet: the devices the proofs named, with an API key.
  const overview = shaped(c.OverviewResponse, await a.call('GET', '/v1/fleet'), 'overview');
  const robots = [...new Set(valid.map((x) => JSON.parse(envelopeTextOf(x.body)).payload.subject.robot_id as string | null))]
    .filter((r): r is string => r !== null)
    .sort();
  t.deepEqual(
    overview.devices.map((d) => d.id),
    robots,
  );
  t.is(overview.summary.total_devices, robots.length);
  const tasks = new Set(valid.map((x) => JSON.parse(envelopeTextOf(x.body)).payload.subject.task_id as string));
  t.is(overview.summary.total_tasks, tasks.size, 'distinct tasks of the stored proofs');
  t.true(tasks.size > 0);
  t.is(shaped(c.OverviewResponse, await b.call('GET', '/v1/fleet'), 'overview of another wallet').devices.length, 0);
  const device = shaped(c.DeviceDetailResponse, await a.call('GET', '/v1/fleet/devices/arm-1'), 'device');
  t.is(device.proof_count, arm1.length);
  t.is(device.custom_name, null);
  t.is((await b.call('GET', '/v1/fleet/devices/arm-1')).status, 404, "another wallet's device is 404");

  // rename_device renames.
  const renamed = shaped(c.RenameResponse, await a.call('PATCH', '/v1/fleet/devices/arm-1/name', '{"name": "Welder 1"}'), 'rename');
  t.deepEqual([renamed.success, renamed.device_id, renamed.name], [true, 'arm-1', 'Welder 1']);
  const afterRename = shaped(c.DeviceDetailResponse, await a.call('GET', '/v1/fleet/devices/arm-1'), 'device after rename');
  t.deepEqual([afterRename.custom_name, afterRename.display_name], ['Welder 1', 'Welder 1']);

  // report_health then get_health: a reported metric comes back.
  const reported = shaped(
    c.HealthReportResponse,
    await a.call(
      'POST',
      '/v1/fleet/devices/rover-9/health',
      '{"cpu_percent": 12.5, "cpu_temperature": 61.5, "battery_percent": 85.0, "battery_charging": true, "memory_used_mb": 512.0, "network_connected": true, "network_type": "wifi", "uptime_seconds": 3600, "temperature": 24.0, "custom_metrics": {"joint": 1.5, "mode": "auto", "docked": false}}',
    ),
    'report health',
  );
  t.deepEqual([reported.success, reported.device_id], [true, 'rover-9']);
  const latest = await a.call('GET', '/v1/fleet/devices/rover-9/health');
  const h = shaped(c.DeviceHealthResponse, latest, 'get health').health;
  t.deepEqual(
    [
      h.cpu_percent,
      h.cpu_temperature,
      h.battery_percent,
      h.battery_charging,
      h.memory_used_mb,
      h.network_connected,
      h.network_type,
      h.uptime_seconds,
      h.temperature,
    ],
    [12.5, 61.5, 85, true, 512, true, 'wifi', 3600, 24],
  );
  t.deepEqual(h.custom_metrics, { joint: 1.5, mode: 'auto', docked: false });
  const never = shaped(c.DeviceHealthResponse, await a.call('GET', '/v1/fleet/devices/arm-2/health'), 'health never reported').health;
  t.deepEqual([never.battery_percent, never.custom_metrics, never.last_updated], [null, {}, null]);
  t.is(typeof h.last_updated, 'string');
  t.is((await b.call('GET', '/v1/fleet/devices/rover-9/health')).status, 404);

  // groups: create, list, assign, unassign, delete.
  const created = shaped(c.CreateGroupResponse, await a.call('POST', '/v1/fleet/groups', '{"name": "Yard", "description": "outdoor units"}'), 'create group');
  const gid = created.group.id;
  t.deepEqual([created.group.name, created.group.description], ['Yard', 'outdoor units']);
  const groups = shaped(c.GroupListResponse, await a.call('GET', '/v1/fleet/groups'), 'groups');
  t.deepEqual([groups.total, groups.groups.map((g) => g.id)], [1, [gid]]);
  t.is(shaped(c.GroupListResponse, await b.call('GET', '/v1/fleet/groups'), 'groups of another wallet').total, 0);
  const assigned = shaped(c.MembershipResponse, await a.call('POST', `/v1/fleet/groups/${gid}/assign`, '{"device_ids": ["arm-1", "rover-9"]}'), 'assign');
  t.deepEqual(assigned.assigned, ['arm-1', 'rover-9']);
  const grouped = shaped(c.OverviewResponse, await a.call('GET', '/v1/fleet'), 'overview after assign');
  t.deepEqual(
    grouped.devices.filter((d) => d.group_id === gid).map((d) => [d.id, d.group_name]),
    [
      ['arm-1', 'Yard'],
      ['rover-9', 'Yard'],
    ],
  );
  t.is((await b.call('POST', `/v1/fleet/groups/${gid}/assign`, '{"device_ids": ["arm-1"]}')).status, 404);
  const unassigned = shaped(c.MembershipResponse, await a.call('POST', `/v1/fleet/groups/${gid}/unassign`, '{"device_ids": ["rover-9"]}'), 'unassign');
  t.deepEqual(unassigned.assigned, ['arm-1']);
  const deleted = shaped(c.DeleteGroupResponse, await a.call('DELETE', `/v1/fleet/groups/${gid}`), 'delete group');
  t.deepEqual([deleted.success, deleted.group_id, deleted.devices_unassigned], [true, gid, 1]);
  t.is((await a.call('DELETE', `/v1/fleet/groups/${gid}`)).status, 404);

  // reorder_devices orders the overview; delete_device hides a device, its proofs stay.
  const reordered = shaped(
    c.ReorderResponse,
    await a.call('PATCH', '/v1/fleet/devices/order', '{"device_orders": [{"device_id": "rover-9", "sort_order": 0}, {"device_id": "arm-2", "sort_order": 1}]}'),
    'reorder',
  );
  t.deepEqual([reordered.success, reordered.updated], [true, 2]);
  const ordered = shaped(c.OverviewResponse, await a.call('GET', '/v1/fleet'), 'overview after reorder');
  t.deepEqual(
    ordered.devices.slice(0, 2).map((d) => d.id),
    ['rover-9', 'arm-2'],
  );
  t.is((await b.call('PATCH', '/v1/fleet/devices/order', '{"device_orders": [{"device_id": "arm-2", "sort_order": 0}]}')).status, 404);
  t.is((await b.call('DELETE', '/v1/fleet/devices/arm-2')).status, 404, 'another wallet cannot hide my device');
  const hidden = shaped(c.DeleteDeviceResponse, await a.call('DELETE', '/v1/fleet/devices/arm-2'), 'delete device');
  t.deepEqual([hidden.success, hidden.device_id], [true, 'arm-2']);
  const afterHide = shaped(c.OverviewResponse, await a.call('GET', '/v1/fleet'), 'overview after delete');
  t.false(afterHide.devices.some((d) => d.id === 'arm-2'));
  t.is(afterHide.summary.total_devices, ordered.summary.total_devices - 1);
  t.is(
    (await search(a, '{"limit": 50, "offset": 0, "sort_field": "created_at", "sort_order": "desc", "robot_id": "arm-2"}')).total,
    valid.filter((x) => JSON.parse(envelopeTextOf(x.body)).payload.subject.robot_id === 'arm-2').length,
    'its proofs stay',
  );

  // Credentials: each failure the SDK maps, with {detail}.
  const noKey = await app.call('GET', '/acto/v1/fleet', { wallet: alice.address, headers: SDK_HEADERS });
  t.is(noKey.status, 401);
  t.is(typeof noKey.body.detail, 'string');
  t.is((await sdk(app, 'not-a-key', alice).call('GET', '/v1/fleet')).status, 401);
  const mismatch = await app.call('GET', '/acto/v1/fleet', { credential: a.key, wallet: bob.address, headers: SDK_HEADERS });
  t.is(mismatch.status, 403);
  const jwt = await app.signIn(alice);
  t.is((await sdk(app, jwt, alice).call('GET', '/v1/fleet')).status, 200, 'a dashboard token works too');
}

const SDK_HEADERS = { 'content-type': 'application/json', 'user-agent': 'acto-python-sdk/1.0.0' };

/** A client that sends what the SDK sends: every header on every request, bodies as given (Python's JSON text). */
function sdk(app: IdentityApp, key: string, wallet: TestWallet) {
  return {
    key,
    call: (method: string, path: string, body?: string) =>
      app.call(method, `/acto${path}`, { credential: key, wallet: wallet.address, headers: SDK_HEADERS, ...(body !== undefined ? { body, raw: true } : {}) }),
  };
}
