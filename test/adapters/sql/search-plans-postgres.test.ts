import test from 'ava';
import { KnexProofStore } from '../../../src/adapters/sql/index.js';
import type { ProofQuery } from '../../../src/application/ports/proof-store.js';
import { postgresFixture } from '../../support/databases.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';
import { seed, statements, planOf } from './search-plans-support.js';

// PostgreSQL's plans for needles: common ones while the slices are short, and the shortest ones.
const pg = postgresFixture(test, 'search_plans');

test.serial('postgres: a needle the planner takes for common is not counted while the slices are short, and its page is the same', async (t) => {
  const db = await pg.fresh();
  const seen: string[] = [];
  const listen = (d: { sql: string }) => seen.push(d.sql);
  const make = (commonPerProbe?: number) =>
    new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 4, ...(commonPerProbe !== undefined && { commonPerProbe }) });
  const ids: string[] = [];
  for (let i = 0; i < 30; i++) {
    // The newest 12 proofs lack the needle; the older ones hold it.
    const r = aProofRecord(WALLET_A, {
      taskId: `t${i}`,
      createdAt: new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString(),
      meta: { site: i < 18 ? 'lyon' : 'paris' },
      seed: i % 8,
    });
    await make().add(r);
    if (i < 18) ids.push(r.proofId);
  }
  await db.knex.raw('analyze');
  const query: ProofQuery = { text: 'lyon', order: 'desc', limit: 4 };
  const pages: string[][] = [];
  for (const commonPerProbe of [undefined, 0]) {
    seen.length = 0;
    db.reader.on('query', listen);
    try {
      pages.push((await make(commonPerProbe).search(WALLET_A, query)).items.map((p) => p.proofId));
    } finally {
      db.reader.off('query', listen);
    }
    const counts = seen.filter((s) => /count\(\*\) as "n"/.test(s)).length;
    const estimates = seen.filter((s) => /^explain \(format json\)/.test(s)).length;
    if (commonPerProbe === undefined) {
      // A few dozen rows: the planner takes the needle for rare, and it is counted.
      t.true(counts >= 1, seen.join('\n'));
    } else {
      // Slices of 2 and 8: the estimate instead of a count, twice; the third slice fills the page.
      t.is(estimates, 2, seen.join('\n'));
      t.is(counts, 0, seen.join('\n'));
    }
  }
  t.deepEqual(pages[0], [...ids].reverse().slice(0, 4));
  t.deepEqual(pages[1], pages[0]);
});
test.serial('postgres: a needle of one or two characters never reads the trigram index, whose scan for it would be every entry', async (t) => {
  const db = await pg.fresh();
  const store = await seed(db);
  // A planner told that the index is cheap to read (as with a large effective_cache_size)
  // must still have no trigram-index plan to choose for a needle without a trigram.
  for (const q of [{ text: 'ly' }, { text: 'y' }, { text: 'ly', taskId: 't1' }, { text: 'ly', sort: 'robot_id' as const }]) {
    for (const order of ['asc', 'desc'] as const) {
      const query: ProofQuery = { ...q, order, limit: 5 };
      const sent = await statements(db, () => store.search(WALLET_A, query));
      sent.push(...(await statements(db, () => store.count(WALLET_A, query, 10_001))));
      for (const s of sent) {
        // The needle is tested on an expression the index is not built on, so no plan can use it.
        t.notRegex(s.sql, /(?<!\()proofs\.search_text like/, s.sql);
        t.notRegex(await planOf(db, s), /proofs_search_text_trgm/, `${JSON.stringify(query)}\n${s.sql}`);
      }
    }
  }
});
