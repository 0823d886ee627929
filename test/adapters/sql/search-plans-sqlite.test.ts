import test from 'ava';
import { KnexProofStore } from '../../../src/adapters/sql/index.js';
import type { ProofQuery } from '../../../src/application/ports/proof-store.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { sqliteFixture } from '../../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { statements, planOf } from './search-plans-support.js';

// SQLite's plans for the slices of a text search: clusters, proofs out of order, chunks, many hits, spread keys, equality filters.
const sqlite = sqliteFixture(test);

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
