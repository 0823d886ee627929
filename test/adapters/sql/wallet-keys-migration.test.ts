import test, { type ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { KnexProofStore, migrateLatest } from '../../../src/adapters/sql/index.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import type { ProofQuery } from '../../../src/application/ports/proof-store.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { emptyPostgresDatabase, emptySqliteDatabase, migrateTo, migrationsBefore } from '../../support/migrations.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * 004_wallet_keys rebuilds `proofs` and `proof_topics` around integer wallet keys. A database
 * that already holds proofs must come out of it with every proof, topic and id as it was, each
 * wallet still seeing only its own, and new proofs numbered after the old ones.
 */

const BEFORE_004 = migrationsBefore('004_wallet_keys');
const sqliteDatabase = emptySqliteDatabase;
const postgresDatabase = (t: ExecutionContext) => emptyPostgresDatabase(t, 'wallet_keys');

/** Rows as 001_proofs laid them out: the wallet's address where its key now is. */
async function insertOldRows(knex: Knex, records: readonly ProofRecord[]): Promise<void> {
  for (const record of records) {
    // The score column came later (007).
    const { score: _score, ...row } = toRow(record);
    const [inserted] = (await knex('proofs').insert(row).returning('id')) as Array<{ id: number | string }>;
    const topics = [...new Set(record.topics)].map((topic) => ({ proof_pk: inserted!.id, wallet: record.wallet, topic }));
    if (topics.length > 0) await knex('proof_topics').insert(topics);
  }
}

const summaryIds = (page: { items: ReadonlyArray<{ proofId: string }> }) => page.items.map((i) => i.proofId);
const query = (q: Partial<ProofQuery> = {}): ProofQuery => ({ order: 'desc', limit: 50, ...q });

/** Proof ids in list order: created_at descending, then proof id descending. */
const listOrder = (records: readonly ProofRecord[]) =>
  [...records].sort((a, b) => b.createdAtMs - a.createdAtMs || (a.proofId < b.proofId ? 1 : -1)).map((r) => r.proofId);

for (const [dialect, open] of [
  ['sqlite', sqliteDatabase],
  ['postgres', postgresDatabase],
] as const) {
  test(`${dialect}: 004_wallet_keys keeps every stored proof, topic and id, and each wallet's view`, async (t) => {
    const db = await open(t);
    await migrateTo(db, BEFORE_004);
    const a = [
      aProofRecord(WALLET_A, { seed: 1, robotId: 'r-1', topics: ['nav/pose', 'arm/joint'] }),
      aProofRecord(WALLET_A, { seed: 2, robotId: 'r-2', topics: ['nav/pose'], createdAt: '2026-11-20T09:00:00Z' }),
      // Same instant as the first: the proof id orders them.
      aProofRecord(WALLET_A, { seed: 3, robotId: 'r-1', topics: ['lidar/scan'], runId: 'run-7' }),
    ];
    const b = [aProofRecord(WALLET_B, { seed: 4, robotId: 'r-1', topics: ['arm/joint'] }), aProofRecord(WALLET_B, { seed: 5, taskId: 'task-b' })];
    await insertOldRows(db.knex, [b[0]!, ...a, b[1]!]);
    const idsBefore = await db.knex('proofs').select('id', 'proof_id').orderBy('id');

    // Later migrations follow; these run first.
    t.deepEqual((await migrateLatest(db)).slice(0, 2), ['004_wallet_keys', '005_early_years']);

    t.deepEqual(await db.knex('proofs').select('id', 'proof_id').orderBy('id'), idsBefore);
    // Keys in the order the wallets first stored a proof.
    t.deepEqual(
      (await db.knex('wallets').select('id', 'address').orderBy('id')).map((w: { id: number | string; address: string }) => [Number(w.id), w.address]),
      [
        [1, WALLET_B],
        [2, WALLET_A],
      ],
    );

    const store = new KnexProofStore(db);
    // 008_transparency_log gave the proofs stored before it their leaves, in the order stored.
    const leafOrder = [...new Set(idsBefore.map((r: { proof_id: string }) => r.proof_id))];
    for (const record of [...a, ...b]) t.deepEqual(await store.get(record.wallet, record.proofId), { ...record, logIndex: leafOrder.indexOf(record.proofId) });
    t.is(leafOrder.length, Number((await db.knex('log_leaves').count({ n: '*' }))[0]!.n));
    t.is(await store.get(WALLET_B, a[0]!.proofId), null);
    t.deepEqual(summaryIds(await store.search(WALLET_A, query())), listOrder(a));
    t.deepEqual(summaryIds(await store.search(WALLET_B, query())), listOrder(b));
    t.deepEqual(summaryIds(await store.search(WALLET_A, query({ topic: 'arm/joint' }))), [a[0]!.proofId]);
    t.deepEqual(summaryIds(await store.search(WALLET_B, query({ topic: 'arm/joint' }))), [b[0]!.proofId]);
    t.deepEqual(summaryIds(await store.search(WALLET_A, query({ topic: 'nav/pose', order: 'asc' }))), listOrder([a[0]!, a[1]!]).reverse());
    t.deepEqual(summaryIds(await store.search(WALLET_A, query({ robotId: 'r-1' }))), listOrder([a[0]!, a[2]!]));
    t.deepEqual(summaryIds(await store.search(WALLET_B, query({ taskId: 'task-b' }))), [b[1]!.proofId]);

    // New proofs: numbered after the copied ids, deduplicated against the migrated ones.
    const fresh = aProofRecord(WALLET_A, { seed: 6, topics: ['arm/joint'] });
    t.true((await store.add(fresh)).stored);
    t.false((await store.add(a[0]!)).stored);
    const [newRow] = await db.knex('proofs').select('id').where('proof_id', fresh.proofId);
    t.is(Number((newRow as { id: number | string }).id), Math.max(...idsBefore.map((r: { id: number | string }) => Number(r.id))) + 1);
    t.deepEqual(summaryIds(await store.search(WALLET_A, query({ topic: 'arm/joint' }))).sort(), [a[0]!.proofId, fresh.proofId].sort());
    t.is((await store.search(WALLET_B, query())).items.length, 2);
  });
}

test('sqlite: each list and filter is one range of its index, with no sort', async (t) => {
  const db = await sqliteDatabase(t);
  await migrateLatest(db);
  const store = new KnexProofStore(db);
  for (let i = 0; i < 20; i++) await store.add(aProofRecord(WALLET_A, { seed: i, robotId: `r-${i % 3}`, runId: `run-${i % 2}` }));
  const signer = (await store.search(WALLET_A, query({ limit: 1 }))).items[0]!.signerPublicKeyB64;
  const cases: Array<[Partial<ProofQuery>, string]> = [
    [{}, 'proofs_wallet_created'],
    [{ taskId: 'task-1' }, 'proofs_wallet_task_created'],
    [{ robotId: 'r-1' }, 'proofs_wallet_robot_created'],
    [{ runId: 'run-1' }, 'proofs_wallet_run_created'],
    [{ signerPublicKeyB64: signer }, 'proofs_wallet_signer_created'],
    [{ robotId: 'r-1', order: 'asc', after: { createdAtMs: 0, proofId: '0'.repeat(64) } }, 'proofs_wallet_robot_created'],
  ];
  for (const [q, index] of cases) {
    const seen: Array<{ sql: string; bindings: Knex.RawBinding[] }> = [];
    const listen = (data: { sql: string; bindings: Knex.RawBinding[] }) => seen.push(data);
    db.reader.on('query', listen);
    await store.search(WALLET_A, query(q));
    db.reader.off('query', listen);
    // The first statement on proofs (the wallet's key is looked up before it).
    const search = seen.find((s) => s.sql.startsWith('select') && /\bproofs\b/.test(s.sql))!;
    const plan = ((await db.reader.raw(`explain query plan ${search.sql}`, search.bindings)) as Array<{ detail: string }>).map((r) => r.detail);
    t.true(
      plan.some((d) => d.includes(`USING INDEX ${index} (wallet_id=?`)),
      `${JSON.stringify(q)}: ${plan.join(' | ')}`,
    );
    t.false(
      plan.some((d) => d.includes('TEMP B-TREE')),
      `${JSON.stringify(q)}: ${plan.join(' | ')}`,
    );
  }
});
