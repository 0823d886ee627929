import test from 'ava';
import type { Knex } from 'knex';
import { KnexProofStore, type Database } from '../../../src/adapters/sql/index.js';
import type { ProofQuery } from '../../../src/application/ports/proof-store.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { postgresFixture, sqliteFixture } from '../../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * Every filter the API offers, alone and in pairs, in every order, as a page and as a count:
 * no statement the store sends reads a whole table, and a search by topic or text reads the
 * proofs past its first ones through the topic or trigram index, by key, not by walking the
 * wallet. SQLite: EXPLAIN QUERY PLAN. PostgreSQL: EXPLAIN with sequential scans priced out
 * (its planner rightly prefers them on a few rows), so that the plan shows which index serves.
 * The store tests only 2 proofs in list order before it asks the indexes, so that both steps
 * of a text or topic page run here.
 */
const filters: Array<Omit<ProofQuery, 'order' | 'limit'>> = [
  {},
  { taskId: 't1' },
  { robotId: 'r1' },
  { runId: 'run-1' },
  { signerPublicKeyB64: 'signer' },
  { createdAfterMs: Date.parse('2026-11-20T00:03:00Z'), createdBeforeMs: Date.parse('2026-11-20T00:09:00Z') },
  { topic: 'a' },
  { text: 'lyon' },
  { taskId: 't1', robotId: 'r1' },
  { robotId: 'r1', createdAfterMs: Date.parse('2026-11-20T00:03:00Z') },
  { taskId: 't1', topic: 'a' },
  { robotId: 'r1', text: 'lyon' },
  { topic: 'a', text: 'lyon' },
  { topic: 'b', createdBeforeMs: Date.parse('2026-11-20T00:09:00Z') },
];
const sorts = ['created_at', 'task_id', 'robot_id', 'payload_hash'] as const;

async function seed(db: Database): Promise<KnexProofStore> {
  const store = new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 4 });
  for (let i = 0; i < 16; i++) {
    const createdAt = new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString();
    const spec = {
      taskId: `t${i % 3}`,
      robotId: `r${i % 2}`,
      runId: `run-${i % 4}`,
      topics: i % 2 ? ['a'] : ['b'],
      createdAt,
      meta: { site: i % 4 ? 'lyon' : 'paris' },
    };
    // Signed by 8 keys, so that no filter's value holds most of the wallet.
    await store.add(aProofRecord(WALLET_A, { ...spec, seed: i % 8 }));
    await store.add(aProofRecord(WALLET_B, { ...spec, seed: 8 + (i % 8) }));
  }
  await db.knex.raw('analyze');
  return store;
}

/** The statements a call sends to the read connections. */
async function statements(db: Database, call: () => Promise<unknown>): Promise<Array<{ sql: string; bindings: Knex.RawBinding[] }>> {
  const seen: Array<{ sql: string; bindings: Knex.RawBinding[] }> = [];
  const listen = (d: { sql: string; bindings: Knex.RawBinding[] }) => seen.push(d);
  db.reader.on('query', listen);
  try {
    await call();
  } finally {
    db.reader.off('query', listen);
  }
  return seen.filter((s) => /^select/i.test(s.sql));
}

async function planOf(db: Database, s: { sql: string; bindings: Knex.RawBinding[] }): Promise<string> {
  if (db.dialect === 'sqlite') {
    return ((await db.reader.raw(`explain query plan ${s.sql}`, s.bindings)) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
  }
  return db.knex.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    const result = (await trx.raw(`explain ${s.sql.replace(/\$\d+/g, '?')}`, s.bindings)) as { rows: Array<{ 'QUERY PLAN': string }> };
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

const sqlite = sqliteFixture(test);
const pg = postgresFixture(test, 'search_plans');

for (const [dialect, fresh] of [
  ['sqlite', () => sqlite.fresh()],
  ['postgres', () => pg.fresh()],
] as const) {
  test.serial(`${dialect}: no search or count reads a whole table, and topic and text pages go through their indexes`, async (t) => {
    const db = await fresh();
    await seed(db);
    // A store of its own for each call: a store skips counts it already knows the answer to.
    const store = () => new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 4 });
    const wholeTable = dialect === 'sqlite' ? /^(SCAN (proofs|proof_topics|wallets)\b(?! VIRTUAL))/m : /Seq Scan on (proofs|proof_topics|wallets)\b/;
    const topicIndex = dialect === 'sqlite' ? /SEARCH proof_topics USING PRIMARY KEY \(wallet_id=\? AND topic=\?/ : /proof_topics_wallet_topic/;
    const textIndex = dialect === 'sqlite' ? /SCAN proofs_fts VIRTUAL TABLE INDEX \d+:M/ : /Bitmap Index Scan on proofs_search_text_trgm/;
    let checked = 0;
    for (const f of filters) {
      for (const sort of sorts) {
        for (const order of ['asc', 'desc'] as const) {
          const query: ProofQuery = { ...f, sort, order, limit: 3 };
          const sent = [
            ...(await statements(db, () => store().search(WALLET_A, query))),
            ...(await statements(db, () => store().search(WALLET_A, { ...query, offset: 2 }))),
            ...(await statements(db, () => store().count(WALLET_A, query, 100))),
          ];
          const plans = await Promise.all(sent.map((s) => planOf(db, s)));
          const label = JSON.stringify(query);
          for (const plan of plans) {
            t.notRegex(plan, wholeTable, `${label}\n${plan}`);
            checked++;
          }
          // A page past its first proofs, and a count, by topic or trigram: the index leads.
          if (sort !== 'robot_id' && (f.topic !== undefined || f.text !== undefined)) {
            const byIndex = plans.filter((p) => (f.text !== undefined ? textIndex : topicIndex).test(p));
            t.true(byIndex.length >= 2, `${label}: no statement read its index\n${plans.join('\n--\n')}`);
          }
          // An equality filter alone reads its own index.
          const only = Object.keys(f);
          const column = { taskId: 'task', robotId: 'robot', runId: 'run', signerPublicKeyB64: 'signer' }[only[0] as string];
          if (only.length === 1 && column !== undefined) {
            // (The wallet's key is looked up first, on its own.)
            const onProofs = plans.filter((_, i) => /\bproofs\b/.test(sent[i]!.sql));
            t.true(onProofs.length >= 3 && onProofs.every((p) => new RegExp(`proofs_wallet_${column}_created`).test(p)), `${label}\n${plans.join('\n--\n')}`);
          }
        }
      }
    }
    t.true(checked > 300);
  });
}

for (const [dialect, fresh] of [
  ['sqlite', () => sqlite.fresh()],
  ['postgres', () => pg.fresh()],
] as const) {
  test.serial(
    `${dialect}: a needle common in the newest proofs fills its page from the list's slices, counting none of its hits; a topic reads its index in the page's order`,
    async (t) => {
      const db = await fresh();
      // Slices of 8, then 32: the first holds 8 matches, the page needs 21.
      const store = new KnexProofStore(db, { textProbe: 8, textHitsPerProbe: 4 });
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) {
        const createdAt = new Date(Date.parse('2026-11-20T00:00:00Z') + i * 60_000).toISOString();
        const r = aProofRecord(WALLET_A, { taskId: `t${i % 3}`, topics: ['a'], createdAt, meta: { site: 'lyon' }, seed: i % 8 });
        await store.add(r);
        ids.push(r.proofId);
      }
      await store.add(aProofRecord(WALLET_B, { taskId: 't0', topics: ['a'], meta: { site: 'lyon' }, seed: 9 }));
      await db.knex.raw('analyze');
      for (const f of [{ text: 'lyon' }, { topic: 'a' }]) {
        for (const order of ['asc', 'desc'] as const) {
          const query: ProofQuery = { ...f, order, limit: 20 };
          let items: string[] = [];
          const sent = await statements(db, async () => (items = (await store.search(WALLET_A, query)).items.map((p) => p.proofId)));
          const label = JSON.stringify(query);
          const inOrder = order === 'asc' ? ids : [...ids].reverse();
          t.deepEqual(items, inOrder.slice(0, 20), label);
          const plans = await Promise.all(sent.map((s) => planOf(db, s)));
          for (const plan of plans) t.notRegex(plan, dialect === 'sqlite' ? /^SCAN (proofs|proof_topics)\b(?! VIRTUAL)/m : /Seq Scan/, `${label}\n${plan}`);
          if ('text' in f && dialect === 'postgres') {
            // The wallet's key, then two slices, each one statement (its proofs tested in order,
            // answering the matches and the slice's last proof): no count, no hits.
            t.is(sent.length, 3, `${label}\n${sent.map((s) => s.sql).join('\n')}`);
            for (const [i, s] of sent.slice(1).entries()) {
              t.regex(s.sql, /row_number\(\) over \(order by created_at_ms (asc|desc), proof_id collate "C" (asc|desc)\) as slice_row/, s.sql);
              // The matches are taken in the slice's own order as it is read (no sort of them
              // above it), so the statement stops once it has the page's.
              t.regex(plans[i + 1]!, /^Limit\b.*\n\s*->\s+Subquery Scan on slice\b/, plans[i + 1]);
            }
            t.false(
              sent.some((s) => /count\(|proofs_fts| as hit\b/.test(s.sql)),
              `${label}\n${sent.map((s) => s.sql).join('\n')}`,
            );
          } else if ('text' in f) {
            // The wallet's key, then two slices, each a boundary (with its proof's key) and its
            // matches: the slice walked in the list's order, each entry whose key lies between
            // those of the slice's two ends checked against the needle's hits in that range, no
            // proof read. The first slice's first key is read on its own. No count of the
            // wallet's hits, nothing outside the range, no sort.
            t.is(sent.length, 6, `${label}\n${sent.map((s) => s.sql).join('\n')}`);
            t.false(
              sent.some((s) => /count\(/.test(s.sql)),
              `${label}\n${sent.map((s) => s.sql).join('\n')}`,
            );
            for (const i of [1, 4]) t.regex(sent[i]!.sql, /^select created_at_ms, proof_id, proofs\.id as slice_key from `proofs` .* offset \?$/, sent[i]!.sql);
            t.regex(sent[2]!.sql, /^select proofs\.id as id from `proofs` .* limit \?$/, sent[2]!.sql);
            for (const i of [3, 5]) {
              t.regex(
                sent[i]!.sql,
                /case when proofs\.id between \? and \? then proofs\.id in \(select rowid from proofs_fts where proofs_fts match \? and rowid between \? and \?\) else proofs\.search_text like \? escape '\\' end/,
                sent[i]!.sql,
              );
              t.regex(plans[i]!, /SEARCH proofs USING INDEX proofs_wallet_created/, plans[i]);
              // M: the phrase; > and <: the rowid range bounds the hits read.
              t.regex(plans[i]!, /SCAN proofs_fts VIRTUAL TABLE INDEX \d+:M\d*></, plans[i]);
              t.notRegex(plans[i]!, /TEMP B-TREE/, plans[i]);
            }
          } else {
            // The wallet's key, the time of the 21st entry of the topic index in the page's order,
            // then the proofs of the topic up to that time: 21 lookups, however many the topic has.
            t.is(sent.length, 3, `${label}\n${sent.map((s) => s.sql).join('\n')}`);
            t.false(
              sent.some((s) => /count\(|exists/.test(s.sql)),
              `${label}\n${sent.map((s) => s.sql).join('\n')}`,
            );
            const edge = Date.parse(new Date(Date.parse('2026-11-20T00:00:00Z') + (order === 'asc' ? 20 : 19) * 60_000).toISOString());
            t.true(sent[2]!.bindings.includes(edge), `${label}: ${JSON.stringify(sent[2]!.bindings)}`);
            t.regex(
              plans[1]!,
              dialect === 'sqlite'
                ? /SEARCH proof_topics USING PRIMARY KEY \(wallet_id=\? AND topic=\?\)/
                : /Index Only Scan (Backward )?using proof_topics_wallet_topic/,
              plans[1],
            );
            t.regex(
              plans[2]!,
              dialect === 'sqlite'
                ? /SEARCH proof_topics USING PRIMARY KEY \(wallet_id=\? AND topic=\? AND created_at_ms[<>]\?\)/
                : /proof_topics_wallet_topic/,
              plans[2],
            );
          }
        }
      }
      if (dialect === 'postgres') {
        // With another filter, the topic is tested proof by proof in the list's slices (a
        // correlated subplan), never joined whole.
        const sent = await statements(db, () => store.search(WALLET_A, { topic: 'a', taskId: 't0', order: 'desc', limit: 5 }));
        const slices = (await Promise.all(sent.map((s) => planOf(db, s)))).filter((_, i) => /exists/.test(sent[i]!.sql));
        t.true(slices.length >= 1);
        for (const plan of slices) {
          t.regex(plan, /SubPlan/, plan);
          t.notRegex(plan, /hashed SubPlan|Semi Join|Hash Join/, plan);
        }
      }
    },
  );
}

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

test.serial(
  "sqlite: a slice whose proofs were stored in two clusters far apart takes its matches from the trigram index's hits in each cluster's range of keys, none between",
  async (t) => {
    const db = await sqlite.fresh();
    // Slices of 2, 8, 32, and no count: the slices alone find the page.
    const store = new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 0 });
    const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
    const older: string[] = [];
    for (let i = 0; i < 10; i++) {
      const r = aProofRecord(WALLET_A, { createdAt: at(i), meta: { site: 'lyon' }, seed: i % 4 });
      await store.add(r);
      older.push(r.proofId);
    }
    // Another wallet's proofs, all holding the needle, take the keys between the two clusters.
    for (let i = 0; i < 400; i++) await store.add(aProofRecord(WALLET_B, { createdAt: at(i), meta: { site: 'lyon' }, seed: 4 + (i % 4) }));
    // The wallet's newest proofs, stored last, without the needle.
    for (let i = 0; i < 6; i++) await store.add(aProofRecord(WALLET_A, { createdAt: at(1000 + i), meta: { site: 'paris' }, seed: i % 4 }));
    await db.knex.raw('analyze');

    let items: string[] = [];
    const sent = await statements(
      db,
      async () => (items = (await store.search(WALLET_A, { text: 'lyon', order: 'desc', limit: 5 })).items.map((p) => p.proofId)),
    );
    t.deepEqual(items, [...older].reverse().slice(0, 5));
    const twoRanges = sent.filter(
      (s) => /^select `wallet`/.test(s.sql) && (s.sql.match(/proofs_fts match \? and rowid between \? and \?/g) ?? []).length === 2,
    );
    t.is(twoRanges.length, 1, sent.map((s) => s.sql).join('\n'));
    const [slice] = twoRanges;
    t.regex(slice!.sql, / union all /);
    // The ranges (each after the phrase): the older cluster's keys, then the newer one's; the
    // other wallet's keys lie between.
    const b = slice!.bindings;
    const ranges = b.flatMap((v, i) => (v === '"lyon"' ? [[Number(b[i + 1]), Number(b[i + 2])] as const] : []));
    t.is(ranges.length, 2, JSON.stringify(b));
    const [[lo1, hi1], [lo2, hi2]] = ranges as [readonly [number, number], readonly [number, number]];
    t.true(lo1 >= 1 && lo1 <= hi1 && hi1 <= 10 && lo2 >= 411 && lo2 <= hi2 && hi2 <= 416, JSON.stringify(b));
    const plan = await planOf(db, slice!);
    t.is((plan.match(/SCAN proofs_fts VIRTUAL TABLE INDEX \d+:M\d*></g) ?? []).length, 2, plan);
    t.notRegex(plan, /^SCAN proofs\b(?! VIRTUAL)/m, plan);
  },
);

test.serial(
  'sqlite: a proof stored far out of order, inside a slice whose two ends were stored close together, is tested on its row and found in its place',
  async (t) => {
    const db = await sqlite.fresh();
    const store = new KnexProofStore(db, { textProbe: 8, textHitsPerProbe: 0 });
    const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
    const byTime: Array<{ minute: number; id: string }> = [];
    for (let i = 0; i < 12; i++) {
      const r = aProofRecord(WALLET_A, { createdAt: at(i), meta: { site: i % 2 ? 'lyon' : 'paris' }, seed: i % 4 });
      await store.add(r);
      if (i % 2) byTime.push({ minute: i, id: r.proofId });
    }
    // Another wallet's proofs, all holding the needle, then one of the wallet's, sent late: its
    // key lies far from those of the proofs around it in time.
    for (let i = 0; i < 300; i++) await store.add(aProofRecord(WALLET_B, { createdAt: at(i), meta: { site: 'lyon' }, seed: 4 + (i % 4) }));
    const late = aProofRecord(WALLET_A, { createdAt: at(9.5), meta: { site: 'lyon' }, seed: 8 });
    await store.add(late);
    byTime.push({ minute: 9.5, id: late.proofId });
    await db.knex.raw('analyze');
    const expected = byTime.sort((a, b) => b.minute - a.minute).map((p) => p.id);

    let items: string[] = [];
    const sent = await statements(
      db,
      async () => (items = (await store.search(WALLET_A, { text: 'lyon', order: 'desc', limit: 4 })).items.map((p) => p.proofId)),
    );
    t.deepEqual(items, expected.slice(0, 4));
    t.true(items.includes(late.proofId));
    // The slice's ends (keys 12 and 5) were stored close together: the walk checks the keys
    // between them against the hits in that range, and tests the late proof's row.
    const walk = sent.filter((s) => /case when proofs\.id between/.test(s.sql));
    t.is(walk.length, 1, sent.map((s) => s.sql).join('\n'));
    const [lo, hi] = walk[0]!.bindings.slice(1, 3).map(Number) as [number, number];
    t.true(lo <= 5 && hi >= 12 && hi < 300, JSON.stringify(walk[0]!.bindings));
    // And without the needle, the late proof's row is tested and left out.
    const paris = (await store.search(WALLET_A, { text: 'paris', order: 'desc', limit: 3 })).items.map((p) => p.proofId);
    t.false(paris.includes(late.proofId));
    t.is(paris.length, 3);
  },
);

test.serial('sqlite: a long slice is read in chunks, each from where the one before ended, and stops at the chunk that fills the page', async (t) => {
  const db = await sqlite.fresh();
  // Slices of 4 and 16, the second read in chunks of 4.
  const store = new KnexProofStore(db, { textProbe: 4, textHitsPerProbe: 0, sqliteChunk: 4 });
  const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
  const ids: string[] = [];
  // 30 proofs with the needle, then the 10 newest without it.
  for (let i = 0; i < 40; i++) {
    const r = aProofRecord(WALLET_A, { createdAt: at(i), meta: { site: i < 30 ? 'lyon' : 'paris' }, seed: i % 4 });
    await store.add(r);
    if (i < 30) ids.push(r.proofId);
  }
  await db.knex.raw('analyze');
  let items: string[] = [];
  const sent = await statements(
    db,
    async () => (items = (await store.search(WALLET_A, { text: 'lyon', order: 'desc', limit: 3 })).items.map((p) => p.proofId)),
  );
  t.deepEqual(items, [...ids].reverse().slice(0, 3));
  const all = sent.map((s) => s.sql).join('\n');
  // Each boundary is 4 entries on from the last: the first slice's, then the second's chunks.
  const boundaries = sent.filter((s) => /proofs\.id as slice_key/.test(s.sql));
  t.deepEqual(
    boundaries.map((s) => s.bindings[s.bindings.length - 1]),
    [3, 3, 3, 3],
    all,
  );
  // The page's 4 rows (3 and one more) are in entries 11 to 14: the third chunk fills it and
  // the fourth is never read.
  t.is(sent.filter((s) => /case when proofs\.id between/.test(s.sql)).length, 4, all);
});

test.serial(
  'sqlite: a slice with many hits of its needle is walked in the order of the list, stopping at the page, instead of each hit read and sorted',
  async (t) => {
    const db = await sqlite.fresh();
    const store = new KnexProofStore(db, { textProbe: 200, textHitsPerProbe: 0 });
    const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
    const ids: string[] = [];
    // 100 proofs with the needle, then 30 newer without it.
    for (let i = 0; i < 130; i++) {
      const r = aProofRecord(WALLET_A, { createdAt: at(i), meta: { site: i < 100 ? 'lyon' : 'paris' }, seed: i % 4 });
      await store.add(r);
      if (i < 100) ids.push(r.proofId);
    }
    await db.knex.raw('analyze');
    for (const order of ['desc', 'asc'] as const) {
      let items: string[] = [];
      const sent = await statements(db, async () => (items = (await store.search(WALLET_A, { text: 'lyon', order, limit: 5 })).items.map((p) => p.proofId)));
      t.deepEqual(items, (order === 'asc' ? ids : [...ids].reverse()).slice(0, 5), order);
      const slice = sent.filter((s) => /^select `wallet`/.test(s.sql));
      t.is(slice.length, 1, sent.map((s) => s.sql).join('\n'));
      t.regex(slice[0]!.sql, / and \+proofs\.id in \(select rowid from proofs_fts/, slice[0]!.sql);
      const plan = await planOf(db, slice[0]!);
      // The list's index in its order; the hits a list to check entries against; no sort.
      t.regex(plan, /^SEARCH proofs USING (COVERING )?INDEX proofs_wallet_created \(wallet_id=\?/m, plan);
      t.regex(plan, /LIST SUBQUERY/, plan);
      t.notRegex(plan, /TEMP B-TREE|INTEGER PRIMARY KEY/, plan);
    }
  },
);

test.serial("sqlite: a first slice whose keys are spread among other wallets' is tested in order, without grouping its keys", async (t) => {
  const db = await sqlite.fresh();
  // A first slice of 4 proofs: the page of 1 (and the match after it) is there.
  const store = new KnexProofStore(db, { textProbe: 4, textHitsPerProbe: 0 });
  const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
  const mine: string[] = [];
  for (let i = 0; i < 6; i++) {
    const r = aProofRecord(WALLET_A, { createdAt: at(i), meta: { site: i % 2 ? 'paris' : 'lyon' }, seed: i % 4 });
    await store.add(r);
    if (i % 2 === 0) mine.push(r.proofId);
    // 40 of another wallet's proofs after each, holding the needle too: the wallet's keys lie
    // 41 apart, more than the 16 a proof that a range may span.
    for (let j = 0; j < 40; j++) await store.add(aProofRecord(WALLET_B, { createdAt: at(i * 100 + j), meta: { site: 'lyon' }, seed: 4 + (j % 4) }));
  }
  await db.knex.raw('analyze');
  let items: string[] = [];
  const sent = await statements(
    db,
    async () => (items = (await store.search(WALLET_A, { text: 'lyon', order: 'desc', limit: 1 })).items.map((p) => p.proofId)),
  );
  t.deepEqual(items, [...mine].reverse().slice(0, 1));
  const all = sent.map((s) => s.sql).join('\n');
  // The key span, once; no grouping of keys; the slice tested in order, not through the trigram index.
  t.is(sent.filter((s) => /as `slice_keys`/.test(s.sql)).length, 1, all);
  t.false(
    sent.some((s) => /group by/.test(s.sql)),
    all,
  );
  t.false(
    sent.some((s) => /proofs_fts/.test(s.sql)),
    all,
  );
  t.true(
    sent.some((s) => /search_text like \?/.test(s.sql)),
    all,
  );
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

test.serial("sqlite: a slice of a list with an equality filter walks that filter's index, not the wallet's time index, on a file never analyzed", async (t) => {
  const db = await sqlite.fresh();
  // Slices of 2 and 8: the second is bounded by positions on both sides.
  const store = new KnexProofStore(db, { textProbe: 2, textHitsPerProbe: 0 });
  const at = (minute: number) => new Date(Date.parse('2026-11-20T00:00:00Z') + minute * 60_000).toISOString();
  const stored: ProofRecord[] = [];
  for (let i = 0; i < 48; i++) {
    const spec = {
      taskId: `t${i % 4}`,
      robotId: `r${i % 3}`,
      runId: `run-${i % 5}`,
      topics: [i % 2 ? 'a' : 'b'],
      createdAt: at(i),
      meta: { site: i % 5 ? 'paris' : 'lyon' },
      seed: i % 6,
    };
    const r = aProofRecord(WALLET_A, spec);
    await store.add(r);
    stored.push(r);
  }
  // No ANALYZE: the registry never runs one, so SQLite plans from its heuristics alone.
  t.deepEqual(await db.reader.raw("select name from sqlite_master where name = 'sqlite_stat1'"), []);
  const signer = stored[1]!.signerPublicKeyB64;
  // Each filter with a needle and with a topic, in both orders. A run's needle proofs are all
  // of one run (i % 5 === 0), so the run filter asks for that run.
  const cases: Array<[ProofQuery, string]> = [
    [{ taskId: 't1', text: 'lyon', order: 'asc', limit: 3 }, 'task'],
    [{ taskId: 't1', text: 'lyon', order: 'desc', limit: 3 }, 'task'],
    [{ robotId: 'r2', text: 'lyon', order: 'asc', limit: 3 }, 'robot'],
    [{ runId: 'run-0', text: 'lyon', order: 'desc', limit: 3 }, 'run'],
    [{ signerPublicKeyB64: signer, text: 'paris', order: 'asc', limit: 3 }, 'signer'],
    [{ taskId: 't2', topic: 'b', order: 'asc', limit: 3 }, 'task'],
    [{ robotId: 'r1', topic: 'a', order: 'desc', limit: 3 }, 'robot'],
    [{ runId: 'run-3', topic: 'a', order: 'asc', limit: 3 }, 'run'],
    [{ signerPublicKeyB64: signer, topic: 'a', order: 'desc', limit: 3 }, 'signer'],
  ];
  for (const [query, column] of cases) {
    let items: string[] = [];
    const sent = await statements(db, async () => (items = (await store.search(WALLET_A, query)).items.map((p) => p.proofId)));
    const matching = stored.filter(
      (p) =>
        (query.text === undefined || p.searchText.includes(query.text)) &&
        (query.topic === undefined || p.topics.includes(query.topic)) &&
        (query.taskId === undefined || p.taskId === query.taskId) &&
        (query.robotId === undefined || p.robotId === query.robotId) &&
        (query.runId === undefined || p.runId === query.runId) &&
        (query.signerPublicKeyB64 === undefined || p.signerPublicKeyB64 === query.signerPublicKeyB64),
    );
    t.true(matching.length >= 3, `${JSON.stringify(query)}: the case needs a page of matches`);
    const expected = (query.order === 'asc' ? matching : [...matching].reverse()).slice(0, 3).map((p) => p.proofId);
    t.deepEqual(items, expected, JSON.stringify(query));
    const walked = sent.filter((s) => /^select `wallet`/.test(s.sql) && /\) (<=|>=) \(/.test(s.sql));
    t.true(walked.length > 0, `${JSON.stringify(query)}: no slice bounded on both sides\n${sent.map((s) => s.sql).join('\n')}`);
    for (const s of walked) {
      const plan = await planOf(db, s);
      t.regex(plan, new RegExp(`USING (COVERING )?INDEX proofs_wallet_${column}_created\\b`), `${JSON.stringify(query)}\n${s.sql}\n${plan}`);
    }
  }
});
