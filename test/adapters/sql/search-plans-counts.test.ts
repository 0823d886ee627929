import test from 'ava';
import { KnexProofStore } from '../../../src/adapters/sql/index.js';
import type { ProofQuery } from '../../../src/application/ports/proof-store.js';
import { postgresFixture, sqliteFixture } from '../../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { statements } from './search-plans-support.js';

// Counts on both databases: one that reached its bound is not sent again, one under it always is.
const sqlite = sqliteFixture(test);
const pg = postgresFixture(test, 'search_plans');

for (const [dialect, fresh] of [
  ['sqlite', () => sqlite.fresh()],
  ['postgres', () => pg.fresh()],
] as const) {
  test.serial(`${dialect}: a search repeated skips the counts it already found to reach their bound, and gives the same page`, async (t) => {
    const db = await fresh();
    const store = new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 4 });
    for (let i = 0; i < 30; i++) {
      // The newest 12 proofs lack the needle and the topic; the 18 older ones hold both.
      const spec = {
        taskId: `t${i % 2}`,
        topics: i < 18 ? ['a'] : ['b'],
        createdAt: new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString(),
        meta: { site: i < 18 ? 'lyon' : 'paris' },
        seed: i % 8,
      };
      await store.add(aProofRecord(WALLET_A, spec));
    }
    await db.knex.raw('analyze');
    // A topic with another filter, so that its slices (not its index in time order) are read.
    for (const query of [
      { text: 'Lyon', order: 'desc', limit: 4 },
      { topic: 'a', taskId: 't1', order: 'desc', limit: 4 },
    ] satisfies ProofQuery[]) {
      const runs: Array<{ counts: number; items: string[] }> = [];
      for (let i = 0; i < 2; i++) {
        let items: string[] = [];
        const sent = await statements(db, async () => (items = (await store.search(WALLET_A, query)).items.map((p) => p.proofId)));
        runs.push({ counts: sent.filter((s) => /count\(\*\) as [`"]n[`"]/.test(s.sql)).length, items });
      }
      const label = JSON.stringify(query);
      t.true(runs[0]!.counts >= 1, label);
      t.true(runs[1]!.counts < runs[0]!.counts, `${label}: ${JSON.stringify(runs)}`);
      t.deepEqual(runs[1]!.items, runs[0]!.items, label);
      // Another case of the needle is the same needle; another wallet is not the same wallet.
      if ('text' in query) {
        const other = await statements(db, () => store.search(WALLET_A, { ...query, text: 'LYON' }));
        t.is(other.filter((s) => /count\(\*\) as [`"]n[`"]/.test(s.sql)).length, runs[1]!.counts, label);
      }
    }
  });
}

for (const [dialect, fresh] of [
  ['sqlite', () => sqlite.fresh()],
  ['postgres', () => pg.fresh()],
] as const) {
  test.serial(`${dialect}: a count asked again is not sent again once it reached its bound, and one under its bound always is`, async (t) => {
    const db = await fresh();
    const store = new KnexProofStore(db);
    for (let i = 0; i < 12; i++) {
      const spec = {
        taskId: `t${i % 2}`,
        topics: ['a'],
        createdAt: new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString(),
        meta: { site: 'lyon' },
        seed: i % 8,
      };
      await store.add(aProofRecord(WALLET_A, spec));
    }
    await store.add(aProofRecord(WALLET_B, { taskId: 't0', topics: ['a'], meta: { site: 'lyon' }, seed: 9 }));
    const counting = (s: { sql: string }) => /count\(\*\) as [`"]n[`"]/.test(s.sql);
    const cases: Array<[ProofQuery, number]> = [
      [{ text: 'Lyon', order: 'desc', limit: 4 }, 12],
      [{ topic: 'a', order: 'desc', limit: 4 }, 12],
      [{ taskId: 't1', text: 'lyon', order: 'asc', limit: 4 }, 6],
      [{ createdAfterMs: Date.parse('2026-11-20T00:03:00Z'), order: 'desc', limit: 4 }, 9],
      [{ order: 'desc', limit: 4 }, 12],
    ];
    for (const [query, matches] of cases) {
      const label = JSON.stringify(query);
      // Under its bound: counted each time, and exact.
      for (let i = 0; i < 2; i++) {
        let n = 0;
        const sent = await statements(db, async () => (n = await store.count(WALLET_A, query, matches + 1)));
        t.is(n, matches, label);
        t.is(sent.filter(counting).length, 1, label);
      }
      // Reaching its bound: counted once; asked again, with another order, page or case of the
      // needle, it is the same count and nothing is sent.
      let first = 0;
      const sent = await statements(db, async () => (first = await store.count(WALLET_A, query, matches - 1)));
      t.is(first, matches - 1, label);
      t.is(sent.filter(counting).length, 1, label);
      const again = { ...query, order: 'asc', offset: 2, ...(query.text !== undefined && { text: query.text.toUpperCase() }) } satisfies ProofQuery;
      let second = 0;
      const repeated = await statements(db, async () => (second = await store.count(WALLET_A, again, matches - 1)));
      t.deepEqual(
        repeated.filter((s) => !/from [`"]wallets[`"]/.test(s.sql)),
        [],
        label,
      );
      t.is(second, matches - 1, label);
      // A higher bound is counted again; another wallet is another count.
      t.is(await store.count(WALLET_A, query, matches + 1), matches, label);
      t.is(await store.count(WALLET_B, query, matches - 1), await new KnexProofStore(db).count(WALLET_B, query, matches - 1), label);
      t.true((await store.count(WALLET_B, query, matches - 1)) <= 1, label);
    }
  });
}
