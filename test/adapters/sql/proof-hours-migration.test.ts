import test, { type ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { migrateLatest } from '../../../src/adapters/sql/index.js';
import { KnexProofActivity } from '../../../src/adapters/sql/knex-proof-activity.js';
import { KnexProofSeries } from '../../../src/adapters/sql/knex-proof-series.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { emptyPostgresDatabase, emptySqliteDatabase, migrateTo, migrationsBefore } from '../../support/migrations.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * 011_proof_hours over proofs stored before it: the hours, and the robots of each hour and
 * day, are counted from them (dates before 1970 on the right side of their hour), so the
 * series and the statistics' windows read what counting the proofs would give.
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;

/** Rows as 010 laid them out, with the wallet statistics' total 007 keeps. */
async function insertRows(knex: Knex, records: readonly ProofRecord[]): Promise<void> {
  for (const record of records) {
    await knex('wallets').insert({ address: record.wallet }).onConflict('address').ignore();
    const wallet = (await knex('wallets').select('id').where('address', record.wallet).first()) as { id: number | string };
    await knex('proofs').insert({ ...toRow(record), wallet_id: wallet.id });
    await knex('wallet_stats')
      .insert({ wallet: record.wallet, proofs_submitted: 1 })
      .onConflict('wallet')
      .merge({ proofs_submitted: knex.raw('wallet_stats.proofs_submitted + 1') });
  }
}

for (const [dialect, open] of [
  ['sqlite', emptySqliteDatabase],
  ['postgres', (t: ExecutionContext) => emptyPostgresDatabase(t, 'proof_hours_011')],
] as const) {
  test(`${dialect}: 011_proof_hours counts the proofs already stored by the hour and day of their created_at`, async (t) => {
    const db = await open(t);
    await migrateTo(db, migrationsBefore('011_proof_hours'));
    const dated = [
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:00:00Z',
      '1969-12-31T22:30:00Z',
      '2026-11-18T00:00:00Z',
      '2026-11-18T00:59:59Z',
      '2026-11-18T01:00:00Z',
      '2026-11-19T12:00:00Z',
    ];
    const records = dated.map((createdAt, i) => aProofRecord(WALLET_A, { taskId: `t${i}`, createdAt, ...(i % 3 ? { robotId: `arm-${i % 2}` } : {}) }));
    await insertRows(db.knex, [...records, aProofRecord(WALLET_B, { taskId: 'b', robotId: 'arm-0', createdAt: '2026-11-18T00:10:00Z' })]);

    t.is((await migrateLatest(db))[0], '011_proof_hours');

    const series = new KnexProofSeries(db);
    const epoch = 0;
    t.deepEqual(await series.buckets(WALLET_A, HOUR, epoch - 2 * HOUR, epoch + HOUR), [
      { startMs: epoch - 2 * HOUR, proofs: 1, devices: 1 },
      { startMs: epoch - HOUR, proofs: 1, devices: 0 },
      { startMs: epoch, proofs: 1, devices: 1 },
    ]);
    t.deepEqual(await series.buckets(WALLET_A, DAY, epoch - DAY, epoch + DAY), [
      { startMs: epoch - DAY, proofs: 2, devices: 1 },
      { startMs: epoch, proofs: 1, devices: 1 },
    ]);
    const d0 = Date.parse('2026-11-18T00:00:00Z');
    t.deepEqual(await series.buckets(WALLET_A, DAY, d0, d0 + 2 * DAY), [
      { startMs: d0, proofs: 3, devices: 2 },
      { startMs: d0 + DAY, proofs: 1, devices: 0 },
    ]);
    // A window of whole hours and two partial ones: from 00:30 on the 18th to the 19th's noon.
    const activity = await new KnexProofActivity(db).activity(WALLET_A, [d0 + HOUR / 2], Date.parse('2026-11-19T12:00:00Z'));
    t.deepEqual(activity, { total: 7, since: [3], firstCreatedAtMs: Date.parse(dated[2]!), lastCreatedAtMs: Date.parse(dated[6]!) });
  });
}
