import test from 'ava';
import { KnexProofStore } from '../../../src/adapters/sql/index.js';
import type { ProofQuery } from '../../../src/application/ports/proof-store.js';
import { postgresFixture, sqliteFixture } from '../../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { filters, sorts, seed, statements, planOf } from './search-plans-support.js';

// The plans of searches and counts, on both databases: no whole table read, and the indexes used (see search-plans-support.ts).
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
