import test from 'ava';
import { PROOF_SORT_FIELDS, type ProofCursor, type ProofSortField, type ProofStore } from '../../src/application/ports/proof-store.js';
import type { ProofSummary } from '../../src/domain/proof/proof-record.js';
import type { ProofRecord } from '../../src/domain/proof/proof-record.js';
import type { DeclareTest } from '../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';

/**
 * The ProofStore contract, searching: filters, keyset and offset pages, sort orders, counts.
 * Every adapter (memory, SQLite, PostgreSQL) runs it with proofStoreAddContract; `make` returns
 * a fresh, empty store for each test. Pass `test.serial` when `make` empties a database shared
 * by the tests of a file.
 */
export function proofStoreSearchContract(name: string, make: () => Promise<ProofStore>, testFn: DeclareTest = test): void {
  const at = (i: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString();

  testFn(`${name}: every filter, alone and combined`, async (t) => {
    const store = await make();
    const records: ProofRecord[] = [
      aProofRecord(WALLET_A, { taskId: 'pick', robotId: 'arm-1', runId: 'r1', createdAt: at(1), topics: ['nav/pose'] }),
      aProofRecord(WALLET_A, { taskId: 'pick', robotId: 'arm-2', runId: 'r2', createdAt: at(2), topics: ['gripper'], seed: 1 }),
      aProofRecord(WALLET_A, { taskId: 'place', robotId: 'arm-1', createdAt: at(3), topics: ['gripper', 'nav/pose'], meta: { site: 'Lyon-Nord' } }),
      aProofRecord(WALLET_A, { taskId: 'place', createdAt: at(4), topics: [] }),
    ];
    for (const r of records) await store.add(r);
    const ids = async (q: Omit<Parameters<ProofStore['search']>[1], 'order' | 'limit'>) =>
      (await store.search(WALLET_A, { order: 'asc', limit: 50, ...q })).items.map((i) => records.findIndex((r) => r.proofId === i.proofId));
    t.deepEqual(await ids({}), [0, 1, 2, 3]);
    t.deepEqual(await ids({ taskId: 'pick' }), [0, 1]);
    t.deepEqual(await ids({ robotId: 'arm-1' }), [0, 2]);
    t.deepEqual(await ids({ runId: 'r2' }), [1]);
    t.deepEqual(await ids({ signerPublicKeyB64: records[1]!.signerPublicKeyB64 }), [1]);
    t.deepEqual(await ids({ createdAfterMs: Date.parse(at(2)) }), [1, 2, 3]);
    t.deepEqual(await ids({ createdBeforeMs: Date.parse(at(2)) }), [0]);
    t.deepEqual(await ids({ topic: 'gripper' }), [1, 2]);
    t.deepEqual(await ids({ topic: 'nav' }), []);
    t.deepEqual(await ids({ text: 'lyon' }), [2]);
    t.deepEqual(await ids({ text: 'ARM-' }), [0, 1, 2]);
    t.deepEqual(await ids({ text: '%' }), []);
    t.deepEqual(await ids({ text: '_' }), []);
    t.deepEqual(await ids({ taskId: 'place', topic: 'nav/pose', robotId: 'arm-1', createdAfterMs: Date.parse(at(3)) }), [2]);
  });

  testFn(`${name}: keyset pages cover every proof once, in order, both directions`, async (t) => {
    const store = await make();
    // Equal created_at for several proofs: the proof id breaks the tie.
    for (let i = 0; i < 23; i++) await store.add(aProofRecord(WALLET_A, { taskId: `t${i}`, createdAt: at(i % 7) }));
    for (const order of ['asc', 'desc'] as const) {
      const seen: Array<{ createdAtMs: number; proofId: string }> = [];
      let after: { createdAtMs: number; proofId: string } | undefined;
      for (let pages = 0; pages < 10; pages++) {
        const page = await store.search(WALLET_A, { order, limit: 5, ...(after ? { after } : {}) });
        seen.push(...page.items);
        if (!page.next) break;
        after = page.next;
      }
      t.is(seen.length, 23);
      t.is(new Set(seen.map((s) => s.proofId)).size, 23);
      const sorted = [...seen].sort((a, b) => a.createdAtMs - b.createdAtMs || (a.proofId < b.proofId ? -1 : 1));
      t.deepEqual(seen, order === 'asc' ? sorted : sorted.reverse());
    }
  });

  testFn(`${name}: a page that ends exactly at the last proof has no next cursor`, async (t) => {
    const store = await make();
    for (let i = 0; i < 4; i++) await store.add(aProofRecord(WALLET_A, { taskId: `t${i}`, createdAt: at(i) }));
    const page = await store.search(WALLET_A, { order: 'desc', limit: 4 });
    t.is(page.items.length, 4);
    t.is(page.next, null);
  });

  testFn(`${name}: inserts during paging neither repeat nor drop existing proofs`, async (t) => {
    const store = await make();
    for (let i = 0; i < 10; i++) await store.add(aProofRecord(WALLET_A, { taskId: `old${i}`, createdAt: at(i * 2) }));
    const first = await store.search(WALLET_A, { order: 'desc', limit: 4 });
    for (let i = 0; i < 5; i++) await store.add(aProofRecord(WALLET_A, { taskId: `new${i}`, createdAt: at(i * 4 + 1) }));
    const seen = [...first.items];
    let after = first.next;
    while (after) {
      const page = await store.search(WALLET_A, { order: 'desc', limit: 4, after });
      seen.push(...page.items);
      after = page.next;
    }
    const old = seen.filter((s) => s.taskId.startsWith('old'));
    t.is(old.length, 10);
    t.is(new Set(seen.map((s) => s.proofId)).size, seen.length);
  });

  testFn(`${name}: summaries carry the record's fields without the envelope`, async (t) => {
    const store = await make();
    const r = aProofRecord(WALLET_A, { robotId: 'arm-9', runId: 'r9', topics: ['b', 'a', 'b'] });
    await store.add(r);
    const [item] = (await store.search(WALLET_A, { order: 'desc', limit: 1 })).items;
    t.truthy(item);
    t.false('envelope' in item!);
    t.is(item!.robotId, 'arm-9');
    t.is(item!.runId, 'r9');
    t.deepEqual(item!.topics, ['a', 'b']);
    t.is(item!.eventCount, 3);
    t.is(item!.createdAt, r.createdAt);
    t.is(item!.receivedAtMs, r.receivedAtMs);
  });

  /**
   * Ids whose UTF-8 byte order differs from JavaScript's string order (U+FFFD after U+1F600's
   * surrogates) and from a locale's (upper case before lower, an accent after `z`), the empty
   * string, ties on every key, and proofs without a robot id.
   */
  const sortFixture = async (store: ProofStore) => {
    const tasks = ['b', 'B', 'a', '\u{1F600}', '\uFFFD', 'é', 'z', ''];
    const robots = [undefined, 'arm-2', 'Arm-1', undefined, 'arm-10', 'ß', '\u{1F916}'];
    const records: ProofRecord[] = [];
    for (let i = 0; i < 26; i++) {
      const robotId = robots[i % robots.length];
      const r = aProofRecord(WALLET_A, { taskId: tasks[i % tasks.length]!, ...(robotId !== undefined && { robotId }), createdAt: at(i % 5), seed: i % 3 });
      records.push(r);
      await store.add(r);
    }
    // Another wallet's proofs never show.
    await store.add(aProofRecord(WALLET_B, { taskId: 'a', createdAt: at(2) }));
    return records;
  };
  const bytes = (s: string | null) => (s === null ? null : Buffer.from(s, 'utf8'));
  const byKey = (a: Buffer | null, b: Buffer | null) => (a === b ? 0 : a === null ? -1 : b === null ? 1 : Buffer.compare(a, b));
  const expectedOrder = (records: readonly ProofSummary[], sort: ProofSortField) =>
    [...records].sort((a, b) => {
      const key = sort === 'task_id' ? byKey(bytes(a.taskId), bytes(b.taskId)) : sort === 'robot_id' ? byKey(bytes(a.robotId), bytes(b.robotId)) : 0;
      if (key !== 0) return key;
      if (sort !== 'payload_hash' && a.createdAtMs !== b.createdAtMs) return a.createdAtMs - b.createdAtMs;
      return a.proofId < b.proofId ? -1 : a.proofId > b.proofId ? 1 : 0;
    });

  testFn(`${name}: every sort order, both directions, pages by cursor through every proof once, ids by their bytes`, async (t) => {
    const store = await make();
    const records = await sortFixture(store);
    for (const sort of PROOF_SORT_FIELDS) {
      const expected = expectedOrder(records, sort).map((r) => r.proofId);
      for (const order of ['asc', 'desc'] as const) {
        for (const limit of [1, 4, 26]) {
          const seen: string[] = [];
          let after: ProofCursor | undefined;
          for (let pages = 0; pages < 30; pages++) {
            const page = await store.search(WALLET_A, { order, sort, limit, ...(after ? { after } : {}) });
            seen.push(...page.items.map((i) => i.proofId));
            if (!page.next) break;
            after = page.next;
          }
          t.deepEqual(seen, order === 'asc' ? expected : [...expected].reverse(), `${sort} ${order} by ${limit}`);
        }
      }
    }
  });

  testFn(`${name}: sorted pages keep their filters`, async (t) => {
    const store = await make();
    const records = await sortFixture(store);
    const matching = records.filter((r) => r.createdAtMs >= Date.parse(at(1)) && r.topics.includes('nav/pose'));
    for (const sort of PROOF_SORT_FIELDS) {
      const expected = expectedOrder(matching, sort).map((r) => r.proofId);
      const seen: string[] = [];
      let after: ProofCursor | undefined;
      for (let pages = 0; pages < 30; pages++) {
        const page = await store.search(WALLET_A, {
          order: 'desc',
          sort,
          limit: 3,
          createdAfterMs: Date.parse(at(1)),
          topic: 'nav/pose',
          ...(after ? { after } : {}),
        });
        seen.push(...page.items.map((i) => i.proofId));
        if (!page.next) break;
        after = page.next;
      }
      t.deepEqual(seen, [...expected].reverse(), sort);
    }
    const byRobot = await store.search(WALLET_A, { order: 'asc', sort: 'robot_id', limit: 50, taskId: 'b' });
    t.deepEqual(
      byRobot.items.map((i) => i.proofId),
      expectedOrder(
        records.filter((r) => r.taskId === 'b'),
        'robot_id',
      ).map((r) => r.proofId),
    );
  });

  testFn(`${name}: an offset page is the same slice of the order, and its cursor continues after it`, async (t) => {
    const store = await make();
    const records = await sortFixture(store);
    for (const sort of PROOF_SORT_FIELDS) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = expectedOrder(records, sort).map((r) => r.proofId);
        if (order === 'desc') expected.reverse();
        for (const offset of [0, 1, 7, 25, 26, 40]) {
          const page = await store.search(WALLET_A, { order, sort, limit: 5, offset });
          t.deepEqual(
            page.items.map((i) => i.proofId),
            expected.slice(offset, offset + 5),
            `${sort} ${order} offset ${offset}`,
          );
          t.is(page.next !== null, offset + 5 < expected.length);
          if (page.next) {
            const next = await store.search(WALLET_A, { order, sort, limit: 5, after: page.next });
            t.deepEqual(
              next.items.map((i) => i.proofId),
              expected.slice(offset + 5, offset + 10),
            );
          }
        }
      }
    }
  });

  testFn(`${name}: count counts the filters' matches up to the bound, and nothing of another wallet`, async (t) => {
    const store = await make();
    const records = await sortFixture(store);
    const q = { order: 'asc', limit: 1 } as const;
    t.is(await store.count(WALLET_A, q, 1_000), records.length);
    t.is(await store.count(WALLET_A, q, 10), 10);
    t.is(await store.count(WALLET_A, { ...q, taskId: 'a' }, 1_000), records.filter((r) => r.taskId === 'a').length);
    t.is(await store.count(WALLET_A, { ...q, robotId: 'arm-2', topic: 'nav/pose' }, 1_000), records.filter((r) => r.robotId === 'arm-2').length);
    t.is(await store.count(WALLET_A, { ...q, text: 'ARM-1' }, 1_000), records.filter((r) => /arm-1/i.test(r.robotId ?? '')).length);
    t.is(await store.count(WALLET_A, { ...q, topic: 'absent' }, 1_000), 0);
    t.is(await store.count(WALLET_B, q, 1_000), 1);
    t.is(await store.count('11111111111111111111111111111111', q, 1_000), 0);
  });
}
