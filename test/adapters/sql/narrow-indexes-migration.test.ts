import test from 'ava';
import type { Knex } from 'knex';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { KnexProofStore, migrateLatest } from '../../../src/adapters/sql/index.js';
import type { ProofCursor, ProofQuery, ProofSortField, ProofStore } from '../../../src/application/ports/proof-store.js';
import { KnexProofWriter } from '../../support/knex-proof-writer.js';
import { emptyPostgresDatabase, migrateTo, migrationsBefore } from '../../support/migrations.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * 014_narrow_indexes over proofs stored before it (PostgreSQL; SQLite is unchanged): after
 * it (and the migrations since), every page of every order and filter is the in-memory
 * store's, proofs that share a millisecond included (their order is proof_id's, no longer in
 * the indexes); envelopes come back byte for byte; the list indexes end with created_at_ms; a
 * leaf of one proof_id is still refused twice. (The topic index it narrowed: 015's test.)
 */
async function explain(knex: Knex, sql: string, bindings: Knex.RawBinding[]): Promise<string> {
  return knex.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    const result = (await trx.raw(`explain ${sql}`, bindings)) as { rows: Array<{ 'QUERY PLAN': string }> };
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

const sorts: readonly ProofSortField[] = ['created_at', 'task_id', 'robot_id', 'payload_hash'];
const filters: ReadonlyArray<Partial<ProofQuery>> = [{}, { taskId: 't1' }, { robotId: 'r1' }, { runId: 'run-0' }, { topic: 'a' }, { text: 'lyon' }];

/** Every page of every query, walked with cursors of 3. */
async function allPages(store: ProofStore): Promise<string[]> {
  const seen: string[] = [];
  for (const f of filters) {
    for (const sort of sorts) {
      for (const order of ['asc', 'desc'] as const) {
        let after: ProofCursor | undefined;
        const ids: string[] = [];
        do {
          const page = await store.search(WALLET_A, { ...f, sort, order, limit: 3, ...(after && { after }) });
          ids.push(...page.items.map((p) => p.proofId));
          after = page.next ?? undefined;
        } while (after);
        seen.push(`${JSON.stringify({ ...f, sort, order })}: ${ids.join(',')}`);
      }
    }
  }
  return seen;
}

test('postgres: 014_narrow_indexes keeps every page, order and envelope of the proofs stored before it', async (t) => {
  const db = await emptyPostgresDatabase(t, 'narrow_indexes_014');
  await migrateTo(db, migrationsBefore('014_narrow_indexes'));
  // Written as the registry of that version wrote them: topic rows without their time (015).
  const store = new KnexProofStore(db, { writer: new KnexProofWriter(db.knex, 'before-015') });
  const memory = new MemoryProofStore();
  // 24 proofs over 8 milliseconds: three share each one.
  const records = Array.from({ length: 24 }, (_, i) =>
    aProofRecord(i % 5 === 4 ? WALLET_B : WALLET_A, {
      seed: i,
      taskId: `t${i % 3}`,
      ...(i % 4 ? { robotId: `r${i % 2}` } : {}),
      runId: `run-${i % 2}`,
      topics: i % 2 ? ['a'] : ['b', 'a'],
      createdAt: new Date(Date.parse('2026-11-20T00:00:00Z') + Math.floor(i / 3)).toISOString(),
      meta: { site: i % 3 ? 'lyon' : 'paris' },
    }),
  );
  for (const r of records) {
    await store.add(r);
    await memory.add(r);
  }
  const envelopes = async () => Promise.all(records.map(async (r) => (await store.get(r.wallet, r.proofId, { withText: true }))?.envelopeJson));
  const envelopesBefore = await envelopes();

  t.deepEqual((await migrateLatest(db)).slice(0, 2), ['014_narrow_indexes', '015_topic_times']);

  t.deepEqual(await allPages(new KnexProofStore(db)), await allPages(memory));
  t.deepEqual(await envelopes(), envelopesBefore);
  // The text stored is the text received (toRow), unchanged by the migration.
  t.deepEqual(
    envelopesBefore,
    records.map((r) => r.envelopeJson ?? JSON.stringify(r.envelope)),
  );
  const { rows } = (await db.knex.raw(
    "select indexname, indexdef from pg_indexes where schemaname = current_schema() and tablename in ('proofs', 'proof_topics') order by 1",
  )) as {
    rows: Array<{ indexname: string; indexdef: string }>;
  };
  const defs = Object.fromEntries(rows.map((r) => [r.indexname, r.indexdef.replace(/^.* USING btree /, '')]));
  t.is(defs.proofs_wallet_created, '(wallet_id, created_at_ms)');
  t.is(defs.proofs_wallet_robot_created, '(wallet_id, robot_id NULLS FIRST, created_at_ms)');
  // A leaf of a proof_id already in the log is refused; the lookup by proof_id reads the hash index.
  const leaf = (await db.knex('log_leaves').orderBy('leaf_index').first()) as { leaf_index: string; proof_id: string };
  await t.throwsAsync(db.knex('log_leaves').insert({ leaf_index: 1000, proof_id: leaf.proof_id }), { message: /log_leaves_proof_id_excl/ });
  t.is((await db.knex('log_leaves').count({ n: '*' }))[0]!.n, String(records.length));
  t.regex(await explain(db.knex, 'select leaf_index from log_leaves where proof_id = ?', [leaf.proof_id]), /Index Scan using log_leaves_proof_id_excl/);
  t.false('log_leaves_proof_id_key' in defs);
});
