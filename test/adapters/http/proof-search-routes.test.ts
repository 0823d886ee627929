import test from 'ava';
import * as c from '../../../src/adapters/http/codecs/proof.codecs.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { conforms } from '../../support/conforms.js';
import type { TestRegistry } from '../../support/registry.js';
import { startProofRegistry, WALLET_C } from './proof-routes-support.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startProofRegistry();
});
test.after.always(async () => registry?.close());

test('GET /v1/proofs/{id} returns the record with the envelope as sent; other wallets get 404', async (t) => {
  const envelope = anEnvelope({ taskId: 'get', robotId: 'arm', runId: 'run', meta: { site: 'x' } });
  const { body } = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope });
  const got = await registry.call(WALLET_A, 'GET', `/v1/proofs/${body.proof_id}`);
  t.is(got.status, 200);
  t.deepEqual(got.body.envelope, envelope);
  t.like(got.body, {
    proof_id: body.proof_id,
    task_id: 'get',
    robot_id: 'arm',
    run_id: 'run',
    verified: true,
    created_at: envelope.payload.created_at,
    received_at: '2026-11-20T10:30:00.000Z',
  });
  t.true(conforms(c.ProofRecordResponse, got.body));
  const other = await registry.call(WALLET_B, 'GET', `/v1/proofs/${body.proof_id}`);
  t.is(other.status, 404);
  t.is((await registry.call(WALLET_A, 'GET', `/v1/proofs/${'0'.repeat(64)}`)).status, 404);
  t.is((await registry.call(WALLET_A, 'GET', '/v1/proofs/not-an-id')).status, 404);
});

test('GET /v1/proofs lists newest first with cursor pages and filters', async (t) => {
  const wallet = 'ListWallet1111111111111111111111111111111111';
  for (let i = 0; i < 7; i++) {
    const envelope = anEnvelope({ taskId: i % 2 ? 'odd' : 'even', robotId: `r${i % 3}`, createdAt: `2026-11-20T0${i}:00:00Z` });
    t.is((await registry.call(wallet, 'POST', '/v1/proofs', { envelope })).status, 200);
  }
  const first = await registry.call(wallet, 'GET', '/v1/proofs?limit=3');
  t.is(first.status, 200);
  t.true(conforms(c.ProofListResponse, first.body));
  t.deepEqual(
    first.body.items.map((i: { created_at: string }) => i.created_at),
    ['2026-11-20T06:00:00Z', '2026-11-20T05:00:00Z', '2026-11-20T04:00:00Z'],
  );
  t.false('envelope' in first.body.items[0]);
  const second = await registry.call(wallet, 'GET', `/v1/proofs?limit=3&cursor=${first.body.next_cursor}`);
  const third = await registry.call(wallet, 'GET', `/v1/proofs?limit=3&cursor=${second.body.next_cursor}`);
  t.is(third.body.items.length, 1);
  t.is(third.body.next_cursor, null);
  const odd = await registry.call(wallet, 'GET', '/v1/proofs?task_id=odd&robot_id=r1');
  t.deepEqual(
    odd.body.items.map((i: { created_at: string }) => i.created_at),
    ['2026-11-20T01:00:00Z'],
  );
});

test('a cursor pages on only the list it came from: another order or other filters are 422', async (t) => {
  const wallet = 'CursorWallet11111111111111111111111111111111';
  for (let i = 0; i < 5; i++) {
    const envelope = anEnvelope({ taskId: i % 2 ? 'odd' : 'even', createdAt: `2026-11-21T0${i}:00:00Z` });
    t.is((await registry.call(wallet, 'POST', '/v1/proofs', { envelope })).status, 200);
  }
  const search = (body: Record<string, unknown>) => registry.call(wallet, 'POST', '/v1/proofs/search', body);
  const first = await search({ order: 'asc', limit: 2 });
  const cursor = first.body.next_cursor as string;
  // The same order and filters, any page size; the list route takes it too.
  const next = await search({ order: 'asc', limit: 3, cursor });
  t.deepEqual(
    next.body.items.map((i: { created_at: string }) => i.created_at),
    ['2026-11-21T02:00:00Z', '2026-11-21T03:00:00Z', '2026-11-21T04:00:00Z'],
  );
  t.is((await registry.call(wallet, 'GET', `/v1/proofs?order=asc&limit=1&cursor=${cursor}`)).body.items[0].created_at, '2026-11-21T02:00:00Z');
  for (const other of [{ order: 'desc' }, {}, { order: 'asc', task_id: 'odd' }, { order: 'asc', created_after: '2026-11-21T00:00:00Z' }]) {
    const res = await search({ ...other, cursor });
    t.is(res.status, 422, JSON.stringify(other));
    t.is(res.body.code, 'invalid_cursor');
    t.regex(res.body.detail, /another order or other filters/);
  }
  // A cursor of the earlier form (position only) is still taken.
  const [createdAtMs, proofId] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const older = Buffer.from(`${createdAtMs}.${proofId}`, 'utf8').toString('base64url');
  t.deepEqual(
    (await search({ order: 'asc', limit: 1, cursor: older })).body.items.map((i: { created_at: string }) => i.created_at),
    ['2026-11-21T02:00:00Z'],
  );
  t.is((await search({ order: 'asc', cursor: `${cursor}x` })).body.code, 'invalid_cursor');
});

test('list parameters out of range are 422; repeated ones are 400', async (t) => {
  for (const q of ['limit=0', 'limit=201', 'limit=abc', 'limit=1.5', 'cursor=nope']) {
    const res = await registry.call(WALLET_A, 'GET', `/v1/proofs?${q}`);
    t.is(res.status, 422, q);
    t.is(typeof res.body.detail, 'string');
  }
  t.is((await registry.call(WALLET_A, 'GET', '/v1/proofs?limit=1&limit=2')).status, 400);
});

test('a filter a list or search does not take is refused, never dropped', async (t) => {
  const wallet = 'StrictFilterWallet1111111111111111111111111111';
  t.is((await registry.call(wallet, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'kept', robotId: 'arm-1' }) })).status, 200);
  for (const q of ['robot=arm-2', 'task_id[]=x', 'task_id[a]=x', 'bogus=1&task_id=kept']) {
    const res = await registry.call(wallet, 'GET', `/v1/proofs?${q}`);
    t.is(res.status, 400, q);
    t.is(res.body.code, 'bad_query', q);
    t.regex(res.body.detail, /^query parameter ".+" is not one this route takes \(it takes task_id, robot_id, /, q);
  }
  const typo = await registry.call(wallet, 'POST', '/v1/proofs/search', { robot: 'arm-2' });
  t.is(typo.status, 422);
  t.is(typo.body.path, 'robot');
  t.regex(typo.body.detail, /^robot is not a member of this body \(it takes task_id, robot_id, /);
  // The known ones still work, alone and together.
  t.is((await registry.call(wallet, 'GET', '/v1/proofs?robot_id=arm-1&limit=5')).body.items.length, 1);
  t.is((await registry.call(wallet, 'POST', '/v1/proofs/search', { robot_id: 'arm-2', limit: 5 })).body.items.length, 0);
});

test('POST /v1/proofs/search combines filters, topic, text and time range', async (t) => {
  const wallet = 'SearchWallet111111111111111111111111111111111';
  const put = (o: Parameters<typeof anEnvelope>[0]) => registry.call(wallet, 'POST', '/v1/proofs', { envelope: anEnvelope(o) });
  await put({ taskId: 'weld', robotId: 'arm-1', createdAt: '2026-11-19T10:00:00Z', topics: ['weld/arc'], meta: { site: 'Lyon' } });
  await put({ taskId: 'weld', robotId: 'arm-2', createdAt: '2026-11-19T11:00:00Z', topics: ['nav/pose'] });
  await put({ taskId: 'paint', robotId: 'arm-1', createdAt: '2026-11-19T12:00:00Z', topics: ['weld/arc', 'paint/spray'] });
  const search = async (q: Record<string, unknown>) => {
    const res = await registry.call(wallet, 'POST', '/v1/proofs/search', q);
    t.is(res.status, 200, JSON.stringify(res.body));
    return res.body.items.map((i: { task_id: string; robot_id: string }) => `${i.task_id}/${i.robot_id}`);
  };
  t.deepEqual(await search({ topic: 'weld/arc' }), ['paint/arm-1', 'weld/arm-1']);
  t.deepEqual(await search({ topic: 'weld/arc', order: 'asc' }), ['weld/arm-1', 'paint/arm-1']);
  t.deepEqual(await search({ text: 'lyon' }), ['weld/arm-1']);
  t.deepEqual(await search({ task_id: 'weld', created_after: '2026-11-19T10:30:00Z' }), ['weld/arm-2']);
  t.deepEqual(await search({ created_before: '2026-11-19T11:00:00Z' }), ['weld/arm-1']);
  t.deepEqual(await search({ robot_id: 'arm-1', topic: 'paint/spray' }), ['paint/arm-1']);
  const bad = await registry.call(wallet, 'POST', '/v1/proofs/search', { created_after: 'yesterday' });
  t.is(bad.status, 422);
  t.true(bad.body.detail.includes('created_after'));
  t.is((await registry.call(wallet, 'POST', '/v1/proofs/search', { order: 'sideways' })).status, 422);
  t.is((await registry.call(wallet, 'POST', '/v1/proofs/search', { limit: 500 })).status, 422);
});

test('an empty task_id is a value a filter can match, in a search and in a list', async (t) => {
  const envelope = anEnvelope({ taskId: '', robotId: 'empty-task-robot' });
  t.is((await registry.call(WALLET_C, 'POST', '/v1/proofs', { envelope })).status, 200);
  t.is((await registry.call(WALLET_C, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'not-empty' }) })).status, 200);
  const found = await registry.call(WALLET_C, 'POST', '/v1/proofs/search', { task_id: '' });
  t.deepEqual(
    found.body.items.map((i: { proof_id: string }) => i.proof_id),
    [envelope.payload.payload_hash],
  );
  const listed = await registry.call(WALLET_C, 'GET', '/v1/proofs?task_id=');
  t.deepEqual(
    listed.body.items.map((i: { proof_id: string }) => i.proof_id),
    [envelope.payload.payload_hash],
  );
  // An empty limit is still not a number of items.
  t.is((await registry.call(WALLET_C, 'GET', '/v1/proofs?limit=')).status, 422);
});

test('GET /v1/proofs takes every search filter as a query parameter and answers as the search does', async (t) => {
  const wallet = 'GqTPL6qRf5aUuqscLh8Rg2HTxPUXfhhAXDptTLhp1t2J';
  const created = ['2026-11-20T08:00:00Z', '2026-11-20T09:00:00Z', '2026-11-20T10:00:00Z'];
  for (const [i, createdAt] of created.entries()) {
    const envelope = anEnvelope({
      taskId: `filters-${i}`,
      robotId: `arm-${i % 2}`,
      createdAt,
      topics: i === 1 ? ['vision/frame'] : ['nav/pose'],
      meta: { site: i === 2 ? 'Berlin' : 'Lyon' },
    });
    t.is((await registry.call(wallet, 'POST', '/v1/proofs', { envelope })).status, 200);
  }
  const filters: Array<Record<string, string>> = [
    { order: 'asc' },
    { topic: 'vision/frame' },
    { text: 'berlin' },
    { created_after: '2026-11-20T09:00:00Z', created_before: '2026-11-20T10:00:00Z' },
    { robot_id: 'arm-0', order: 'asc', limit: '1' },
  ];
  for (const filter of filters) {
    const listed = await registry.call(wallet, 'GET', `/v1/proofs?${new URLSearchParams(filter).toString()}`);
    const searched = await registry.call(wallet, 'POST', '/v1/proofs/search', { ...filter, ...(filter.limit ? { limit: Number(filter.limit) } : {}) });
    t.is(listed.status, 200, JSON.stringify(filter));
    t.deepEqual(listed.body, searched.body, JSON.stringify(filter));
  }
  const asc = await registry.call(wallet, 'GET', '/v1/proofs?order=asc');
  t.deepEqual(
    asc.body.items.map((i: { task_id: string }) => i.task_id),
    ['filters-0', 'filters-1', 'filters-2'],
  );
  t.deepEqual(
    (await registry.call(wallet, 'GET', '/v1/proofs?text=berlin')).body.items.map((i: { task_id: string }) => i.task_id),
    ['filters-2'],
  );
  t.is((await registry.call(wallet, 'GET', '/v1/proofs?order=sideways')).status, 422);
  t.is((await registry.call(wallet, 'GET', '/v1/proofs?created_after=yesterday')).status, 422);
});
