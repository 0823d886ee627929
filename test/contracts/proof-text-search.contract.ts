import test, { type ExecutionContext } from 'ava';
import type { ProofQuery, ProofStore } from '../../src/application/ports/proof-store.js';
import type { ProofRecord } from '../../src/domain/proof/proof-record.js';
import type { DeclareTest } from '../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B, type EnvelopeOptions } from '../support/mothers.js';

/**
 * The text search rule (docs/storage.md, "Text search"), the same cases on every ProofStore:
 * `text` matches a proof when its lower-cased form is a substring of the lower-cased task,
 * robot or run id or a meta value (at any depth), taken literally. SQL stores run it once as
 * they are and once testing only the first proofs of the list in order (`probe` small), so
 * that the proofs past them are found through the trigram index.
 */
export function proofTextSearchContract(name: string, make: () => Promise<ProofStore>, testFn: DeclareTest = test): void {
  const at = (i: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString();
  const fixture = async (store: ProofStore) => {
    const specs: EnvelopeOptions[] = [
      { taskId: 'Weld-Seam', robotId: 'ARM-1', meta: { site: 'Lyon-Nord', note: '100%_done' } },
      { taskId: 'paint', robotId: 'arm-2', runId: 'r-ÉTÉ' },
      { taskId: 'weld', meta: { site: 'Straße', deep: { list: ['hidden-value', 42, true] } } },
      { taskId: 'inspect', robotId: 'cam-ü', meta: { path: 'a\\b', quote: 'say "hi"' } },
      { taskId: 'idle', robotId: '\u{1F916}-bot', meta: { note: 'nothing here' } },
      { taskId: 'weld', robotId: 'arm-3', meta: { site: 'lyon' } },
    ];
    const records: ProofRecord[] = [];
    for (const [i, spec] of specs.entries()) {
      const r = aProofRecord(WALLET_A, { ...spec, createdAt: at(i) });
      records.push(r);
      await store.add(r);
    }
    // Another wallet's matches never show.
    await store.add(aProofRecord(WALLET_B, { taskId: 'weld', meta: { site: 'Lyon' }, createdAt: at(3) }));
    return records;
  };
  const cases: Array<[string, number[]]> = [
    ['lyon', [0, 5]],
    ['LYON-n', [0]],
    ['weld', [0, 2, 5]],
    ['eld-se', [0]],
    ['arm-', [0, 1, 5]],
    ['ARM', [0, 1, 5]],
    ['été', [1]],
    ['ÉTÉ', [1]],
    ['straße', [2]],
    ['strasse', []],
    ['hidden-value', [2]],
    ['42', [2]],
    ['true', [2]],
    ['100%_', [0]],
    ['%', [0]],
    ['_', [0]],
    ['0%', [0]],
    ['a\\b', [3]],
    ['\\', [3]],
    ['"hi"', [3]],
    ['cam-Ü', [3]],
    ['\u{1F916}', [4]],
    ['\u{1F916}-b', [4]],
    ['e', [0, 2, 3, 4, 5]],
    ['nothing here', [4]],
    ['absent', []],
    ['lyon-nord-x', []],
  ];

  testFn(`${name}: text matches a substring of the ids and meta values, case-insensitive and literal`, async (t) => {
    const store = await make();
    const records = await fixture(store);
    for (const [needle, expected] of cases) {
      for (const order of ['asc', 'desc'] as const) {
        const page = await store.search(WALLET_A, { order, limit: 50, text: needle });
        const want = expected.map((i) => records[i]!.proofId);
        t.deepEqual(
          page.items.map((p) => p.proofId),
          order === 'asc' ? want : [...want].reverse(),
          `${JSON.stringify(needle)} ${order}`,
        );
      }
      t.is(await store.count(WALLET_A, { order: 'asc', limit: 1, text: needle }, 100), expected.length, `count ${JSON.stringify(needle)}`);
    }
  });

  testFn(`${name}: text pages by cursor and by offset, in every order, with other filters`, async (t) => {
    const store = await make();
    const records = await fixture(store);
    const queries: Array<Omit<ProofQuery, 'limit' | 'order'>> = [
      { text: 'weld' },
      { text: 'weld', sort: 'task_id' },
      { text: 'weld', sort: 'payload_hash' },
      { text: 'arm', sort: 'robot_id' },
      { text: 'e', createdAfterMs: Date.parse(at(1)) },
      { text: 'weld', taskId: 'weld' },
      { text: 'lyon', topic: 'nav/pose' },
      { topic: 'nav/pose' },
      { topic: 'safety/state', sort: 'task_id' },
      { topic: 'nav/pose', sort: 'payload_hash', createdBeforeMs: Date.parse(at(4)) },
    ];
    for (const q of queries) {
      for (const order of ['asc', 'desc'] as const) {
        const all = (await store.search(WALLET_A, { ...q, order, limit: 50 })).items.map((i) => i.proofId);
        t.true(all.length > 0, JSON.stringify(q));
        const paged: string[] = [];
        let after = undefined as ProofQuery['after'];
        for (let n = 0; n < 10; n++) {
          const page = await store.search(WALLET_A, { ...q, order, limit: 1, ...(after ? { after } : {}) });
          paged.push(...page.items.map((i) => i.proofId));
          if (!page.next) break;
          after = page.next;
        }
        t.deepEqual(paged, all, `cursor ${JSON.stringify(q)} ${order}`);
        for (let offset = 0; offset <= all.length; offset++) {
          const page = await store.search(WALLET_A, { ...q, order, limit: 2, offset });
          t.deepEqual(
            page.items.map((i) => i.proofId),
            all.slice(offset, offset + 2),
            `offset ${offset} ${JSON.stringify(q)} ${order}`,
          );
        }
        t.is(await store.count(WALLET_A, { ...q, order, limit: 1 }, 100), all.length);
      }
    }
    t.is(records.length, 6);
  });

  testFn(`${name}: a topic's pages in time order, four proofs a millisecond, with other filters, by cursor and by offset`, async (t) => {
    const store = await make();
    const base = Date.parse('2026-11-20T00:00:00Z');
    const records: ProofRecord[] = [];
    for (let i = 0; i < 45; i++) {
      const topics = i % 9 === 0 ? ['rare', 'common'] : i % 2 ? ['common', 'odd'] : ['common'];
      const r = aProofRecord(WALLET_A, {
        seed: i,
        taskId: `t${i % 3}`,
        robotId: `r${i % 2}`,
        topics,
        createdAt: new Date(base + Math.floor(i / 4)).toISOString(),
      });
      records.push(r);
      // Stored out of time order, as clients may send them; another wallet's proofs never show.
      if (i % 3 === 2) await store.add(aProofRecord(WALLET_B, { seed: 100 + i, topics, createdAt: new Date(base + Math.floor(i / 4)).toISOString() }));
    }
    for (const r of [...records].reverse()) await store.add(r);
    const queries: Array<[Omit<ProofQuery, 'limit' | 'order'>, (r: ProofRecord) => boolean]> = [
      [{ topic: 'common' }, () => true],
      [{ topic: 'odd' }, (r) => r.topics.includes('odd')],
      [{ topic: 'rare' }, (r) => r.topics.includes('rare')],
      [{ topic: 'common', taskId: 't1' }, (r) => r.taskId === 't1'],
      [{ topic: 'odd', robotId: 'r1', createdAfterMs: base + 2 }, (r) => r.topics.includes('odd') && r.robotId === 'r1' && r.createdAtMs >= base + 2],
      [
        { topic: 'rare', createdAfterMs: base + 1, createdBeforeMs: base + 9 },
        (r) => r.topics.includes('rare') && r.createdAtMs >= base + 1 && r.createdAtMs < base + 9,
      ],
      [{ topic: 'absent' }, () => false],
    ];
    for (const [q, matches] of queries) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = records
          .filter(matches)
          .sort((a, b) => a.createdAtMs - b.createdAtMs || (a.proofId < b.proofId ? -1 : 1))
          .map((r) => r.proofId);
        if (order === 'desc') expected.reverse();
        await expectPages(t, store, { ...q, order }, expected, { all: 50, cursorLimits: [1, 3], offsets: [1, 4, 7, 13] });
      }
    }
  });

  testFn(`${name}: text pages when proofs are stored out of time order among another wallet's matches, by cursor and by offset`, async (t) => {
    const store = await make();
    const base = Date.parse('2026-11-20T00:00:00Z');
    const records: ProofRecord[] = [];
    const site = new Map<string, string>();
    // Proofs next to each other in time are stored far apart (the i-th stored is 7i mod 60-th
    // in time), two a millisecond, each followed by another wallet's proof holding the needle.
    for (let i = 0; i < 60; i++) {
      const nth = (i * 7) % 60;
      const name = nth % 3 === 0 ? `Lyon-${nth}` : nth % 5 === 0 ? 'lyo' : `paris-${nth}`;
      const r = aProofRecord(WALLET_A, {
        seed: i,
        taskId: `t${nth % 2}`,
        robotId: `r${nth % 4}`,
        meta: { site: name },
        createdAt: new Date(base + Math.floor(nth / 2)).toISOString(),
      });
      records.push(r);
      site.set(r.proofId, name.toLowerCase());
      await store.add(r);
      await store.add(aProofRecord(WALLET_B, { seed: 100 + i, meta: { site: 'lyon' }, createdAt: new Date(base + Math.floor(nth / 2)).toISOString() }));
    }
    const holds = (needle: string) => (r: ProofRecord) => site.get(r.proofId)!.includes(needle);
    const queries: Array<[Omit<ProofQuery, 'limit' | 'order'>, (r: ProofRecord) => boolean]> = [
      [{ text: 'lyon' }, holds('lyon')],
      [{ text: 'LYO' }, holds('lyo')],
      [{ text: 'paris' }, holds('paris')],
      [{ text: 'ly' }, holds('ly')],
      [{ text: 'lyon', taskId: 't0' }, (r) => holds('lyon')(r) && r.taskId === 't0'],
      [{ text: 'lyo', robotId: 'r1', createdAfterMs: base + 4 }, (r) => holds('lyo')(r) && r.robotId === 'r1' && r.createdAtMs >= base + 4],
      [
        { text: 'paris', createdAfterMs: base + 3, createdBeforeMs: base + 25 },
        (r) => holds('paris')(r) && r.createdAtMs >= base + 3 && r.createdAtMs < base + 25,
      ],
      [{ text: 'absent' }, () => false],
      [{ text: 'lyon', sort: 'task_id' }, holds('lyon')],
      [{ text: 'paris', sort: 'payload_hash', createdAfterMs: base + 2 }, (r) => holds('paris')(r) && r.createdAtMs >= base + 2],
    ];
    const byTime = (a: ProofRecord, b: ProofRecord) => a.createdAtMs - b.createdAtMs || (a.proofId < b.proofId ? -1 : 1);
    const orders = {
      created_at: byTime,
      task_id: (a: ProofRecord, b: ProofRecord) => (a.taskId < b.taskId ? -1 : a.taskId > b.taskId ? 1 : byTime(a, b)),
      payload_hash: (a: ProofRecord, b: ProofRecord) => (a.proofId < b.proofId ? -1 : 1),
    };
    for (const [q, matches] of queries) {
      for (const order of ['asc', 'desc'] as const) {
        const expected = records
          .filter(matches)
          .sort(orders[(q.sort ?? 'created_at') as keyof typeof orders])
          .map((r) => r.proofId);
        if (order === 'desc') expected.reverse();
        await expectPages(t, store, { ...q, order }, expected, { all: 100, cursorLimits: [1, 4], offsets: [1, 5, 11] });
      }
    }
  });
}

/**
 * `q`'s pages are `expected` (proof ids in order): whole, walked by cursor at each of
 * `cursorLimits`, by offset (those given, the last proof and the end) three at a time, and
 * counted.
 */
async function expectPages(
  t: ExecutionContext,
  store: ProofStore,
  q: Omit<ProofQuery, 'limit'>,
  expected: readonly string[],
  how: { readonly all: number; readonly cursorLimits: readonly number[]; readonly offsets: readonly number[] },
): Promise<void> {
  const label = JSON.stringify(q);
  t.deepEqual(
    (await store.search(WALLET_A, { ...q, limit: how.all })).items.map((i) => i.proofId),
    expected,
    label,
  );
  for (const limit of how.cursorLimits) {
    const paged: string[] = [];
    let after = undefined as ProofQuery['after'];
    do {
      const page = await store.search(WALLET_A, { ...q, limit, ...(after ? { after } : {}) });
      paged.push(...page.items.map((i) => i.proofId));
      after = page.next ?? undefined;
    } while (after && paged.length <= expected.length);
    t.deepEqual(paged, expected, `cursor of ${limit}, ${label}`);
  }
  for (const offset of [...how.offsets, expected.length - 1, expected.length]) {
    const page = await store.search(WALLET_A, { ...q, limit: 3, offset });
    t.deepEqual(
      page.items.map((i) => i.proofId),
      expected.slice(offset, offset + 3),
      `offset ${offset}, ${label}`,
    );
  }
  t.is(await store.count(WALLET_A, { ...q, limit: 1 }, 100), expected.length, `count, ${label}`);
}
