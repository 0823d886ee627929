import test, { type ExecutionContext } from 'ava';
import type { Knex } from 'knex';
import { migrateLatest } from '../../../src/adapters/sql/index.js';
import { KnexDeviceStore } from '../../../src/adapters/sql/knex-device-store.js';
import { KnexWalletStats } from '../../../src/adapters/sql/knex-wallet-stats.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import { defaultPolicyScorer } from '../../../src/application/proofs/default-policy-scorer.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { emptyPostgresDatabase, emptySqliteDatabase, migrateTo, migrationsBefore } from '../../support/migrations.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * 007_fleet_details_and_wallet_stats over a database that already holds proofs and devices:
 * every proof is scored once at its own receive time, the statistics count what is stored,
 * and devices and health reports keep what they had.
 */
const DAY = 86_400_000;
const T0 = Date.parse('2026-11-21T00:00:00Z');

/** Rows as 006 laid them out. */
async function insertRows(knex: Knex, records: readonly ProofRecord[]): Promise<void> {
  for (const record of records) {
    await knex('wallets').insert({ address: record.wallet }).onConflict('address').ignore();
    const wallet = (await knex('wallets').select('id').where('address', record.wallet).first()) as { id: number | string };
    const { score: _score, ...row } = toRow(record);
    await knex('proofs').insert({ ...row, wallet_id: wallet.id });
  }
}

for (const [dialect, open] of [
  ['sqlite', emptySqliteDatabase],
  ['postgres', (t: ExecutionContext) => emptyPostgresDatabase(t, 'fleet_details')],
] as const) {
  test(`${dialect}: 007 scores every stored proof once, counts the statistics, and keeps devices as they were`, async (t) => {
    const db = await open(t);
    await migrateTo(db, migrationsBefore('007_fleet_details_and_wallet_stats'));
    // More proofs than one backfill batch (200), over three days and two wallets.
    const records = Array.from({ length: 230 }, (_, i) =>
      aProofRecord(
        i % 10 === 0 ? WALLET_B : WALLET_A,
        { seed: i, runId: `run-${i}`, taskId: `task-${i % 3}`, ...(i % 4 === 0 ? {} : { robotId: `r-${i % 2}` }) },
        T0 + (i % 3) * DAY + i,
      ),
    );
    await insertRows(db.knex, records);
    await db.knex('devices').insert({ wallet: WALLET_A, device_id: 'r-1', first_seen_ms: T0, last_seen_ms: T0, proof_count: 7, name: 'Welder' });

    t.true((await migrateLatest(db)).includes('007_fleet_details_and_wallet_stats'));

    const scores = (await db.knex('proofs').select('proof_id', 'score')) as Array<{ proof_id: string; score: number }>;
    const byId = new Map(scores.map((s) => [s.proof_id, Number(s.score)]));
    for (const r of records) t.is(byId.get(r.proofId), defaultPolicyScorer.score(r.envelope, r.receivedAtMs), r.taskId);

    const a = records.filter((r) => r.wallet === WALLET_A);
    const stats = await new KnexWalletStats(db).read(WALLET_A, { top: 5, fromDayMs: T0, toDayMs: T0 + 2 * DAY });
    t.is(stats.totals.proofsSubmitted, a.length);
    t.is(stats.totals.scoredProofs, a.length);
    t.true(Math.abs(stats.totals.scoreSum - a.reduce((n, r) => n + byId.get(r.proofId)!, 0)) < 1e-9);
    t.is(stats.totals.firstActivityMs, Math.min(...a.map((r) => r.receivedAtMs)));
    t.is(stats.totals.lastActivityMs, Math.max(...a.map((r) => r.receivedAtMs)));
    const count = (f: (r: ProofRecord) => boolean) => a.filter(f).length;
    t.deepEqual(
      stats.topRobots.map((r) => [r.name, r.count]).sort(),
      [
        ['r-0', count((r) => r.robotId === 'r-0')],
        ['r-1', count((r) => r.robotId === 'r-1')],
      ].sort(),
    );
    t.is(
      stats.topTasks.reduce((n, r) => n + r.count, 0),
      a.length,
    );
    t.deepEqual(
      stats.days.map((d) => d.proofs),
      [0, 1, 2].map((k) => count((r) => r.receivedAtMs >= T0 + k * DAY && r.receivedAtMs < T0 + (k + 1) * DAY)),
    );
    t.is(await new KnexWalletStats(db).read(WALLET_B, { top: 5, fromDayMs: T0, toDayMs: T0 }).then((s) => s.totals.proofsSubmitted), records.length - a.length);

    t.like(await new KnexDeviceStore(db).getDevice(WALLET_A, 'r-1'), {
      name: 'Welder',
      proofCount: 7,
      hiddenAtMs: null,
      sortOrder: null,
      description: null,
      deviceType: null,
    });
  });
}
