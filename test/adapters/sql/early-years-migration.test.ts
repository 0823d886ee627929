import test, { type ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { KnexProofStore, migrateLatest } from '../../../src/adapters/sql/index.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { emptyPostgresDatabase, emptySqliteDatabase, migrateTo, migrationsBefore } from '../../support/migrations.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * 005_early_years: rows stored while years 0000–0099 were counted as 1900–1999 get the
 * created_at_ms their created_at text says, and nothing else of any row changes.
 */

const sqliteDatabase = emptySqliteDatabase;
const postgresDatabase = (t: ExecutionContext) => emptyPostgresDatabase(t, 'early_years');

/** What the parser gave before: Date.UTC's reading, years 0–99 as 1900–1999. */
const oldMs = (text: string) => {
  const [y, mo, d, h, mi, s] = text.match(/\d+/g)!.map(Number) as [number, number, number, number, number, number];
  return Date.UTC(y, mo - 1, d, h, mi, s);
};

/** Rows as 004_wallet_keys laid them out (the writers of today also fill what later migrations add). */
async function insertRows(knex: Knex, records: readonly ProofRecord[]): Promise<void> {
  for (const record of records) {
    await knex('wallets').insert({ address: record.wallet }).onConflict('address').ignore();
    const wallet = (await knex('wallets').select('id').where('address', record.wallet).first()) as { id: number | string };
    const { score: _score, ...row } = toRow(record);
    await knex('proofs').insert({ ...row, wallet_id: wallet.id });
  }
}

for (const [dialect, open] of [
  ['sqlite', sqliteDatabase],
  ['postgres', postgresDatabase],
] as const) {
  test(`${dialect}: 005_early_years puts proofs of years 0000–0099 before year 100, and changes nothing else`, async (t) => {
    const db = await open(t);
    await migrateTo(db, migrationsBefore('005_early_years'));
    const early = [
      aProofRecord(WALLET_A, { seed: 1, taskId: 'year-0', createdAt: '0000-01-01T00:00:00Z', events: [] }),
      aProofRecord(WALLET_A, { seed: 2, taskId: 'year-50', createdAt: '0050-06-01T12:00:00Z', events: [] }),
      aProofRecord(WALLET_B, { seed: 3, taskId: 'year-99', createdAt: '0099-12-31T23:59:59Z', events: [] }),
    ];
    const later = [
      aProofRecord(WALLET_A, { seed: 4, taskId: 'year-1899', createdAt: '1899-12-31T23:59:59Z', events: [] }),
      aProofRecord(WALLET_A, { seed: 5, taskId: 'year-2026', createdAt: '2026-11-20T10:00:00Z' }),
    ];
    await insertRows(db.knex, [...early, ...later]);
    // As the rows were written before: the early ones counted in 1900–1999.
    for (const r of early)
      await db
        .knex('proofs')
        .where('proof_id', r.proofId)
        .update({ created_at_ms: oldMs(r.createdAt) });
    const before = await db.knex('proofs').select().orderBy('id');

    // Later migrations follow; this one runs first.
    t.is((await migrateLatest(db))[0], '005_early_years');

    const after = await db.knex('proofs').select().orderBy('id');
    t.is(after.length, before.length);
    after.forEach((row: Record<string, unknown>, i: number) => {
      const record = [...early, ...later].find((r) => r.proofId === row.proof_id)!;
      t.is(Number(row.created_at_ms), record.createdAtMs, `${record.taskId}`);
      // Every other column as it was (007, which follows, adds each proof's score).
      const { score: _score, ...kept } = row;
      t.deepEqual({ ...kept, created_at_ms: null }, { ...before[i], created_at_ms: null });
    });
    t.is(early[0]!.createdAtMs, Date.parse('0000-01-01T00:00:00Z'));
    const store = new KnexProofStore(db);
    const asc = await store.search(WALLET_A, { order: 'asc', limit: 10 });
    t.deepEqual(
      asc.items.map((p) => p.taskId),
      ['year-0', 'year-50', 'year-1899', 'year-2026'],
    );
    const before1000 = await store.search(WALLET_A, { order: 'desc', limit: 10, createdBeforeMs: Date.parse('1000-01-01T00:00:00Z') });
    t.deepEqual(
      before1000.items.map((p) => p.taskId),
      ['year-50', 'year-0'],
    );
    t.deepEqual((await store.get(WALLET_B, early[2]!.proofId))?.envelope, early[2]!.envelope);
  });
}
