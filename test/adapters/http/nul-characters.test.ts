import test, { type ExecutionContext } from 'ava';
import { postgresSchemaUrl } from '../../support/databases.js';
import { anEnvelope, WALLET_A, type EnvelopeOptions } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';

// PostgreSQL's text cannot hold U+0000, while JSON and SQLite can (and no database holds a lone surrogate). Every input that could
// reach a text column gets the same answer on both databases: refused with 422 naming it,
// or stored without it; never a 500 from one database only.

async function everyNulInput(t: ExecutionContext, registry: TestRegistry): Promise<void> {
  const submit = (o: EnvelopeOptions) => registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope(o) });
  const cases: Array<[EnvelopeOptions, string]> = [
    [{ taskId: 'a\u0000b' }, 'payload.subject.task_id'],
    [{ taskId: 'nul-robot', robotId: 'r\u0000' }, 'payload.subject.robot_id'],
    [{ taskId: 'nul-run', runId: '\u0000' }, 'payload.subject.run_id'],
    [{ taskId: 'nul-topic', topics: ['ok', 't\u0000'] }, 'payload.telemetry_normalized.events[1].topic'],
  ];
  for (const [o, path] of cases) {
    const res = await submit(o);
    t.is(res.status, 422, path);
    t.is(res.body.code, 'unstorable_proof');
    t.is(res.body.path, path);
    t.regex(res.body.detail, /U\+0000/);
    // Such a proof still verifies: it is a valid proof the registry does not keep.
    t.true((await registry.call(WALLET_A, 'POST', '/v1/verify', { envelope: anEnvelope(o) })).body.valid);
  }

  // In meta, U+0000 is data of the envelope, kept as signed; the search text leaves it out.
  const meta = anEnvelope({ taskId: 'nul-meta', meta: { note: 'left\u0000right' } });
  const stored = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: meta });
  t.is(stored.status, 200);
  const read = await registry.call(WALLET_A, 'GET', `/v1/proofs/${stored.body.proof_id}`);
  t.deepEqual(read.body.envelope, meta);
  const found = await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { text: 'right' });
  t.deepEqual(
    found.body.items.map((p: { task_id: string }) => p.task_id),
    ['nul-meta'],
  );

  // Filters: no stored value holds U+0000, and a filter that does is refused, not a 500.
  for (const filter of ['task_id', 'robot_id', 'run_id', 'topic', 'text']) {
    const res = await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { [filter]: 'x\u0000' });
    t.is(res.status, 422, filter);
    t.regex(res.body.detail, /U\+0000/);
    t.is((await registry.call(WALLET_A, 'GET', `/v1/proofs?${filter}=x%00`)).status, 422, filter);
  }

  // A lone surrogate cannot be stored either (a database reads it as U+FFFD): refused, never matched.
  await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: '\ufffd' }) });
  for (const needle of ['\ud800', 'a\udc00', '\udbff\ud800']) {
    const res = await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { task_id: needle });
    t.is(res.status, 422, JSON.stringify(needle));
    t.regex(res.body.detail, /lone surrogate/);
  }
  t.is((await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { task_id: '\ufffd' })).body.items.length, 1);
  t.is((await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { task_id: '\u{1F916}' })).status, 200);

  // Fleet: a device id or name holding U+0000.
  const health = await registry.call(WALLET_A, 'POST', '/v1/fleet/devices/arm%00x/health', { status: 'ok' });
  t.is(health.status, 422);
  for (const [method, path, body] of [
    ['PATCH', '/v1/fleet/devices/arm-1/name', { name: 'a\u0000b' }],
    ['POST', '/v1/fleet/groups', { name: 'g\u0000' }],
    ['POST', '/v1/fleet/groups', { name: 'g', description: 'd\u0000' }],
    ['POST', '/v1/fleet/devices/arm-1/health', { status: 'ok', message: 'm\u0000' }],
    ['POST', '/v1/fleet/devices/arm-1/health', { status: 'ok', metrics: { 'k\u0000': 1 } }],
  ] as const) {
    const res = await registry.call(WALLET_A, method, path, body);
    t.true(
      res.status === 422 || res.status === 201 || res.status === 200,
      `${method} ${path} ${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`,
    );
  }
}

test('U+0000 on SQLite', async (t) => {
  const registry = await startTestRegistry();
  t.teardown(() => registry.close());
  await everyNulInput(t, registry);
});

test('U+0000 on PostgreSQL', async (t) => {
  const { url } = await postgresSchemaUrl(t, 'nul_characters');
  const registry = await startTestRegistry({ env: { DATABASE_URL: url } });
  t.teardown(() => registry.close());
  await everyNulInput(t, registry);
});

test('fleet names, descriptions, health messages and device id lists holding a lone surrogate are 422 and change nothing', async (t) => {
  const registry = await startTestRegistry();
  t.teardown(() => registry.close());
  t.is((await registry.call(WALLET_A, 'POST', '/v1/fleet/devices/arm-1/health', { status: 'ok', message: 'fine' })).status, 201);
  for (const [method, path, body] of [
    ['PATCH', '/v1/fleet/devices/arm-1/name', { name: 'x\ud800' }],
    ['POST', '/v1/fleet/groups', { name: 'lone\ud800' }],
    ['POST', '/v1/fleet/groups', { name: 'g', description: 'd\udc00' }],
    ['POST', '/v1/fleet/devices/arm-1/health', { status: 'degraded', message: '\ud800' }],
    ['POST', '/v1/fleet/groups/none-such/assign', { device_ids: ['\udbff'] }],
  ] as const) {
    const res = await registry.call(WALLET_A, method, path, body);
    t.is(res.status, 422, `${method} ${path} ${JSON.stringify(body)}`);
    t.regex(res.body.detail, /lone surrogate/);
  }
  const device = await registry.call(WALLET_A, 'GET', '/v1/fleet/devices/arm-1');
  t.is(device.body.name, 'arm-1');
  t.is(device.body.last_health.status, 'ok');
  t.deepEqual((await registry.call(WALLET_A, 'GET', '/v1/fleet/groups')).body.items, []);
  // A pair of surrogates (a character outside the BMP) is text like any other.
  t.is((await registry.call(WALLET_A, 'PATCH', '/v1/fleet/devices/arm-1/name', { name: 'bot \u{1F916}' })).status, 200);
});

test('a device id with a broken percent-escape is 400, never a device of that literal text', async (t) => {
  const registry = await startTestRegistry();
  t.teardown(() => registry.close());
  for (const id of ['%FF', '%ED%A0%80', 'a%ZZ', '%']) {
    const res = await registry.call(WALLET_A, 'POST', `/v1/fleet/devices/${id}/health`, { status: 'ok' });
    t.is(res.status, 400, id);
    t.is(res.body.code, 'bad_path', id);
  }
  t.deepEqual((await registry.call(WALLET_A, 'GET', '/v1/fleet')).body.devices, []);
  // A well-formed escape is the character it stands for.
  t.is((await registry.call(WALLET_A, 'POST', '/v1/fleet/devices/bot-%C3%A9/health', { status: 'ok' })).status, 201);
  t.is((await registry.call(WALLET_A, 'GET', '/v1/fleet/devices/bot-%C3%A9')).body.device_id, 'bot-é');
});
