import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import * as c from '../../../src/adapters/http/codecs/fleet.codecs.js';
import { aWallet } from '../../support/identity.js';
import { startIdentityApp, type IdentityApp } from '../../support/identity-app.js';

/**
 * Health reports with the ACTO SDK's metric set, sent as a robot sends them: with an API key
 * (a robot holds a key, not a wallet) and no status; read back with a dashboard token.
 */
let app: IdentityApp;
const alice = aWallet(41);
const bob = aWallet(42);
let aliceKey: string;
let aliceToken: string;
let bobKey: string;
let bobToken: string;

test.before(async () => {
  app = await startIdentityApp();
  await app.fund(alice, '60000');
  await app.fund(bob, '60000');
  ({ key: aliceKey, token: aliceToken } = await app.apiKey(alice));
  ({ key: bobKey, token: bobToken } = await app.apiKey(bob));
});
test.after.always(async () => app?.close());

const conforms = (codec: { decode(u: unknown): unknown }, body: unknown) => isRight(codec.decode(body) as never);

/** What the SDK's report_health sends: every metric, no status. */
const sdkReport = {
  cpu_percent: 45.5,
  cpu_temperature: 62.0,
  memory_percent: 60.0,
  memory_used_mb: 2048.0,
  memory_total_mb: 4096.0,
  battery_percent: 85.0,
  battery_charging: true,
  disk_percent: 40.0,
  network_connected: true,
  network_type: 'wifi',
  uptime_seconds: 3600,
  temperature: 35.5,
  custom_metrics: { firmware: '1.2.3', gripper_ok: true, joints: 6 },
};

test.serial('a robot reports its health with an API key; every member is kept and read back', async (t) => {
  const res = await app.call('POST', '/v1/fleet/devices/robot-1/health', { credential: aliceKey, wallet: alice.address, body: sdkReport });
  t.is(res.status, 201, JSON.stringify(res.body));
  t.true(conforms(c.HealthRecordedResponse, res.body), JSON.stringify(res.body));
  const expected = {
    status: 'ok',
    status_derived: true,
    cpu_percent: 45.5,
    cpu_temperature: 62,
    memory_percent: 60,
    memory_used_mb: 2048,
    memory_total_mb: 4096,
    battery_percent: 85,
    battery_charging: true,
    disk_percent: 40,
    network_connected: true,
    network_type: 'wifi',
    uptime_s: 3600,
    temperature_c: 35.5,
    message: null,
    metrics: null,
    custom_metrics: { firmware: '1.2.3', gripper_ok: true, joints: 6 },
    received_at: new Date(app.clock.nowMs()).toISOString(),
  };
  t.deepEqual(res.body.report, expected);
  t.like(res.body.device, { device_id: 'robot-1', status: 'online' });

  // The latest report, with a dashboard token.
  const latest = await app.call('GET', '/v1/fleet/devices/robot-1/health', { credential: aliceToken, wallet: alice.address });
  t.is(latest.status, 200);
  t.true(conforms(c.LatestHealthResponse, latest.body));
  t.deepEqual(latest.body, { device_id: 'robot-1', health: expected });
  const device = await app.call('GET', '/v1/fleet/devices/robot-1', { credential: aliceToken, wallet: alice.address });
  t.deepEqual(device.body.last_health, expected);
  t.deepEqual(device.body.health_history, [expected]);
});

test.serial('a status the robot sends is kept; without one it is derived from the readings', async (t) => {
  const send = (body: unknown) => app.call('POST', '/v1/fleet/devices/robot-2/health', { credential: aliceKey, wallet: alice.address, body });
  const sent = await send({ ...sdkReport, status: 'error' });
  t.is(sent.body.report.status, 'error');
  t.false('status_derived' in sent.body.report);
  t.like((await send({ disk_percent: 99 })).body.report, { status: 'error', status_derived: true });
  t.like((await send({ battery_percent: 10, battery_charging: false })).body.report, { status: 'degraded', status_derived: true });
  t.like((await send({ network_connected: false })).body.report, { status: 'degraded', status_derived: true });
  t.like((await send({ status: null, cpu_percent: 10 })).body.report, { status: 'ok', status_derived: true });
  const latest = await app.call('GET', '/v1/fleet/devices/robot-2/health', { credential: aliceToken, wallet: alice.address });
  t.like(latest.body.health, { status: 'ok', cpu_percent: 10, status_derived: true });
  // The device's status follows its derived health as it follows a reported one.
  await send({ memory_percent: 99 });
  t.is((await app.call('GET', '/v1/fleet/devices/robot-2', { credential: aliceToken, wallet: alice.address })).body.status, 'error');
});

test.serial('bad readings are 422 naming the member, and change nothing', async (t) => {
  const before = await app.call('GET', '/v1/fleet/devices/robot-1/health', { credential: aliceToken, wallet: alice.address });
  const bad: Array<[Record<string, unknown>, string]> = [
    [{}, 'status'],
    [{ cpu_temperature: -300 }, 'cpu_temperature'],
    [{ memory_used_mb: -1 }, 'memory_used_mb'],
    [{ memory_used_mb: 5000, memory_total_mb: 4096 }, 'memory_used_mb'],
    [{ battery_charging: 'yes' }, 'battery_charging'],
    [{ network_connected: 1 }, 'network_connected'],
    [{ disk_percent: 100.5 }, 'disk_percent'],
    [{ network_type: '' }, 'network_type'],
    [{ network_type: 'w'.repeat(65) }, 'network_type'],
    [{ custom_metrics: { nested: { a: 1 } } }, 'custom_metrics'],
    [{ custom_metrics: { list: [1] } }, 'custom_metrics'],
    [{ custom_metrics: { long: 'x'.repeat(257) } }, 'custom_metrics'],
    [{ custom_metrics: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])) }, 'custom_metrics'],
    [{ temperature: 30, temperature_c: 31 }, 'temperature'],
    [{ uptime_s: 1, uptime_seconds: 2 }, 'uptime_seconds'],
    [{ status: 'fine' }, 'status'],
  ];
  for (const [body, member] of bad) {
    const res = await app.call('POST', '/v1/fleet/devices/robot-1/health', { credential: aliceKey, wallet: alice.address, body });
    t.is(res.status, 422, JSON.stringify(body));
    t.true(String(res.body.detail).includes(member), `${JSON.stringify(body)}: ${res.body.detail}`);
  }
  // One reading under both its names, agreeing, is fine.
  const both = await app.call('POST', '/v1/fleet/devices/robot-3/health', {
    credential: aliceKey,
    wallet: alice.address,
    body: { temperature: 30, temperature_c: 30 },
  });
  t.is(both.status, 201);
  t.is(both.body.report.temperature_c, 30);
  const after = await app.call('GET', '/v1/fleet/devices/robot-1/health', { credential: aliceToken, wallet: alice.address });
  t.deepEqual(after.body, before.body);
});

test.serial("one wallet never sees, nor reports for, another wallet's device", async (t) => {
  await app.call('POST', '/v1/fleet/devices/robot-b/health', { credential: bobKey, wallet: bob.address, body: { status: 'ok' } });
  // Alice's device is 404 to Bob, by key or token.
  t.is((await app.call('GET', '/v1/fleet/devices/robot-1/health', { credential: bobToken, wallet: bob.address })).status, 404);
  // Bob's key with Alice's address: the credential's wallet decides, so 403.
  t.is((await app.call('POST', '/v1/fleet/devices/robot-1/health', { credential: bobKey, wallet: alice.address, body: { status: 'error' } })).status, 403);
  // Bob reporting "robot-1" makes his own device of that id; Alice's is untouched.
  await app.call('POST', '/v1/fleet/devices/robot-1/health', { credential: bobKey, wallet: bob.address, body: { status: 'error' } });
  t.is((await app.call('GET', '/v1/fleet/devices/robot-1/health', { credential: aliceToken, wallet: alice.address })).body.health.status, 'ok');
  t.is((await app.call('GET', '/v1/fleet/devices/robot-1/health', { credential: bobToken, wallet: bob.address })).body.health.status, 'error');
  t.is((await app.call('GET', '/v1/fleet/devices/robot-b/health', { credential: aliceToken, wallet: alice.address })).status, 404);
  // A never-reporting device reads as null health, an unknown one is 404.
  t.is((await app.call('GET', '/v1/fleet/devices/nobody/health', { credential: aliceToken, wallet: alice.address })).status, 404);
});

test.serial('reading health needs a dashboard token; a key alone is refused', async (t) => {
  t.is((await app.call('GET', '/v1/fleet/devices/robot-1/health', { credential: aliceKey, wallet: alice.address })).status, 401);
  t.is((await app.call('POST', '/v1/fleet/devices/robot-1/health', { wallet: alice.address, body: { status: 'ok' } })).status, 401);
  // A dashboard token reports too.
  t.is((await app.call('POST', '/v1/fleet/devices/robot-1/health', { credential: aliceToken, wallet: alice.address, body: { status: 'ok' } })).status, 201);
});
