import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import * as c from '../../../src/adapters/http/codecs/proof.codecs.js';
import { MAX_OFFSET } from '../../../src/application/proofs/search-proofs.js';
import { anEnvelope } from '../../support/mothers.js';
import { fixedClock, startTestRegistry, type TestRegistry } from '../../support/registry.js';

let registry: TestRegistry;
const wallet = 'OffsetWallet1111111111111111111111111111111';
const other = 'OffsetOther11111111111111111111111111111111';
/** Seven proofs: tasks and robots in an order of their own, one without a robot id. */
const proofs = [
  { taskId: 'sort-c', robotId: 'arm-b', createdAt: '2026-11-19T01:00:00Z' },
  { taskId: 'sort-a', robotId: 'arm-c', createdAt: '2026-11-19T02:00:00Z' },
  { taskId: 'sort-b', createdAt: '2026-11-19T03:00:00Z' },
  { taskId: 'sort-a', robotId: 'arm-a', createdAt: '2026-11-19T04:00:00Z' },
  { taskId: 'sort-d', robotId: 'arm-b', createdAt: '2026-11-19T05:00:00Z', meta: { site: 'Lyon' } },
  { taskId: 'sort-b', robotId: 'arm-a', createdAt: '2026-11-19T06:00:00Z' },
  { taskId: 'sort-e', robotId: 'arm-c', createdAt: '2026-11-19T07:00:00Z' },
];
const ids: string[] = [];

test.before(async () => {
  registry = await startTestRegistry({ clock: fixedClock('2026-11-20T10:30:00Z') });
  for (const p of proofs) ids.push((await registry.call(wallet, 'POST', '/v1/proofs', { envelope: anEnvelope(p) })).body.proof_id);
  await registry.call(other, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'sort-a', createdAt: '2026-11-19T01:30:00Z' }) });
});
test.after.always(async () => registry?.close());

const search = (body: Record<string, unknown>) => registry.call(wallet, 'POST', '/v1/proofs/search', body);
const tasks = (body: { items: Array<{ task_id: string; robot_id: string | null }> }) => body.items.map((i) => `${i.task_id}/${i.robot_id ?? '-'}`);

test('an offset search answers with its place in the whole: total, limit, offset, has_more', async (t) => {
  const first = await search({ limit: 3, offset: 0, sort_field: 'created_at', sort_order: 'asc' });
  t.is(first.status, 200, JSON.stringify(first.body));
  t.true(isRight(c.ProofListResponse.decode(first.body)));
  t.deepEqual(tasks(first.body), ['sort-c/arm-b', 'sort-a/arm-c', 'sort-b/-']);
  t.like(first.body, { total: 7, total_exact: true, limit: 3, offset: 0, has_more: true });
  const last = await search({ limit: 3, offset: 6, sort_order: 'asc' });
  t.deepEqual(tasks(last.body), ['sort-e/arm-c']);
  t.like(last.body, { total: 7, limit: 3, offset: 6, has_more: false, next_cursor: null });
  const beyond = await search({ limit: 3, offset: 50 });
  t.like(beyond.body, { items: [], total: 7, has_more: false, next_cursor: null });
  // Filters count too; another wallet's proofs never do.
  t.like((await search({ task_id: 'sort-a', offset: 0 })).body, { total: 2, has_more: false });
  t.like((await search({ text: 'lyon', offset: 0 })).body, { total: 1 });
});

test('without offset a search answers as before, with has_more and no total', async (t) => {
  const res = await search({ limit: 2, order: 'asc' });
  t.deepEqual(Object.keys(res.body).sort(), ['has_more', 'items', 'next_cursor']);
  t.true(res.body.has_more);
});

test('each sort_field orders the page, both ways, and its cursor pages on in that order', async (t) => {
  const expected: Record<string, string[]> = {
    task_id: ['sort-a/arm-c', 'sort-a/arm-a', 'sort-b/-', 'sort-b/arm-a', 'sort-c/arm-b', 'sort-d/arm-b', 'sort-e/arm-c'],
    robot_id: ['sort-b/-', 'sort-a/arm-a', 'sort-b/arm-a', 'sort-c/arm-b', 'sort-d/arm-b', 'sort-a/arm-c', 'sort-e/arm-c'],
    payload_hash: [...proofs.keys()].sort((a, b) => (ids[a]! < ids[b]! ? -1 : 1)).map((i) => `${proofs[i]!.taskId}/${proofs[i]!.robotId ?? '-'}`),
  };
  for (const [sort_field, order] of Object.entries(expected)) {
    for (const sort_order of ['asc', 'desc']) {
      const want = sort_order === 'asc' ? order : [...order].reverse();
      t.deepEqual(tasks((await search({ sort_field, sort_order, limit: 50 })).body), want, `${sort_field} ${sort_order}`);
      // Offset pages, then a cursor from the second page on.
      const byOffset = await search({ sort_field, sort_order, limit: 2, offset: 2 });
      t.deepEqual(tasks(byOffset.body), want.slice(2, 4));
      const rest = await search({ sort_field, sort_order, limit: 50, cursor: byOffset.body.next_cursor });
      t.is(rest.status, 200, JSON.stringify(rest.body));
      t.deepEqual(tasks(rest.body), want.slice(4));
      // The list route takes the same members as query parameters.
      const listed = await registry.call(wallet, 'GET', `/v1/proofs?sort_field=${sort_field}&sort_order=${sort_order}&limit=2&offset=2`);
      t.deepEqual(listed.body, byOffset.body);
    }
  }
});

test('a cursor of one sort is refused by another', async (t) => {
  const page = await search({ sort_field: 'task_id', limit: 2 });
  for (const body of [{ sort_field: 'robot_id' }, {}, { sort_field: 'created_at' }, { sort_field: 'task_id', sort_order: 'asc' }]) {
    const res = await search({ ...body, cursor: page.body.next_cursor });
    t.is(res.status, 422, JSON.stringify(body));
    t.is(res.body.code, 'invalid_cursor');
  }
  t.is((await search({ sort_field: 'task_id', order: 'desc', cursor: page.body.next_cursor })).status, 200);
});

test('offset and sort members out of range are 422 naming the member, and change nothing', async (t) => {
  for (const [body, member] of [
    [{ offset: -1 }, 'offset'],
    [{ offset: MAX_OFFSET + 1 }, 'offset'],
    [{ offset: 1.5 }, 'offset'],
    [{ offset: '3' }, 'offset'],
    [{ sort_field: 'envelope' }, 'sort_field'],
    [{ sort_order: 'up' }, 'sort_order'],
  ] as const) {
    const res = await search(body);
    t.is(res.status, 422, JSON.stringify(body));
    t.true(res.body.detail.includes(member), res.body.detail);
  }
  for (const q of ['offset=-1', `offset=${MAX_OFFSET + 1}`, 'offset=x', 'sort_field=nope']) {
    t.is((await registry.call(wallet, 'GET', `/v1/proofs?${q}`)).status, 422, q);
  }
  const page = await search({ limit: 1 });
  const both = await search({ offset: 1, cursor: page.body.next_cursor });
  t.is(both.status, 422);
  t.regex(both.body.detail, /cursor or offset, not both/);
  const clash = await search({ order: 'asc', sort_order: 'desc' });
  t.is(clash.status, 422);
  t.regex(clash.body.detail, /order and sort_order/);
  t.is((await search({ order: 'asc', sort_order: 'asc', limit: 1 })).status, 200);
  t.is((await search({ offset: 0 })).body.total, 7);
});

test('a cursor holding the longest task id a proof can have still pages on', async (t) => {
  const longest = 'LongestKeyWallet111111111111111111111111111';
  const taskId = '\u{1F600}'.repeat(256);
  for (const createdAt of ['2026-11-19T01:00:00Z', '2026-11-19T02:00:00Z']) {
    t.is((await registry.call(longest, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId, createdAt }) })).status, 200);
  }
  const first = await registry.call(longest, 'POST', '/v1/proofs/search', { sort_field: 'task_id', limit: 1 });
  const cursor = first.body.next_cursor as string;
  t.true(cursor.length > 1_000);
  const second = await registry.call(longest, 'POST', '/v1/proofs/search', { sort_field: 'task_id', limit: 1, cursor });
  t.is(second.status, 200, JSON.stringify(second.body));
  t.is(second.body.items.length, 1);
  t.not(second.body.items[0].proof_id, first.body.items[0].proof_id);
  t.false(second.body.has_more);
  t.is((await registry.call(longest, 'GET', `/v1/proofs?sort_field=task_id&limit=1&cursor=${cursor}`)).status, 200);
});
