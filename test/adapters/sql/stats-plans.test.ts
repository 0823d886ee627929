import test from 'ava';
import type { Knex } from 'knex';
import { KnexProofStore, type Database } from '../../../src/adapters/sql/index.js';
import { KnexProofBreakdown } from '../../../src/adapters/sql/knex-proof-breakdown.js';
import { KnexProofActivity } from '../../../src/adapters/sql/knex-proof-activity.js';
import { KnexProofSeries } from '../../../src/adapters/sql/knex-proof-series.js';
import { KnexWalletStats } from '../../../src/adapters/sql/knex-wallet-stats.js';
import { postgresFixture, sqliteFixture } from '../../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * The wallet statistics and the series read kept counts and bounded ranges, never the wallet's
 * proofs one by one: every statement that touches `proofs` is either a range of created_at (at
 * most an hour at each end of a window) or stops after a few rows (LIMIT), and the series of
 * hours and days read the kept tables. Plans read as in search-plans-support.ts.
 */
const HOUR = 3_600_000;
const DAY = 86_400_000;
const T0 = Date.parse('2026-11-20T00:00:00Z');

async function seed(db: Database): Promise<void> {
  const store = new KnexProofStore(db);
  for (let i = 0; i < 24; i++) {
    const spec = { taskId: `t${i % 3}`, robotId: `r${i % 4}`, createdAt: new Date(T0 - i * 37 * 60_000).toISOString() };
    await store.add(aProofRecord(WALLET_A, { ...spec, seed: i % 8 }));
    await store.add(aProofRecord(WALLET_B, { ...spec, seed: 8 + (i % 8) }));
  }
  await db.knex.raw('analyze');
}

async function statements(db: Database, call: () => Promise<unknown>): Promise<Array<{ sql: string; bindings: Knex.RawBinding[] }>> {
  const seen: Array<{ sql: string; bindings: Knex.RawBinding[] }> = [];
  const listen = (d: { sql: string; bindings: Knex.RawBinding[] }) => seen.push(d);
  db.knex.on('query', listen);
  try {
    await call();
  } finally {
    db.knex.off('query', listen);
  }
  return seen.filter((s) => /^select/i.test(s.sql));
}

async function planOf(db: Database, s: { sql: string; bindings: Knex.RawBinding[] }): Promise<string> {
  if (db.dialect === 'sqlite') {
    return ((await db.knex.raw(`explain query plan ${s.sql}`, s.bindings)) as Array<{ detail: string }>).map((r) => r.detail).join('\n');
  }
  return db.knex.transaction(async (trx) => {
    await trx.raw('set local enable_seqscan = off');
    const result = (await trx.raw(`explain ${s.sql.replace(/\$\d+/g, '?')}`, s.bindings)) as { rows: Array<{ 'QUERY PLAN': string }> };
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

const sqlite = sqliteFixture(test);
const pg = postgresFixture(test, 'stats_plans');

for (const [dialect, fresh] of [
  ['sqlite', () => sqlite.fresh()],
  ['postgres', () => pg.fresh()],
] as const) {
  test.serial(`${dialect}: the statistics and the series read kept counts and bounded ranges of proofs`, async (t) => {
    const db = await fresh();
    await seed(db);
    const activity = new KnexProofActivity(db);
    const series = new KnexProofSeries(db);
    const stats = new KnexWalletStats(db);
    const now = T0 + 17 * 60_000 + 123;
    const sent = [
      ...(await statements(db, () => activity.activity(WALLET_A, [now - DAY, now - 7 * DAY], now))),
      ...(await statements(db, () => activity.recentScores(WALLET_A, 100))),
      ...(await statements(db, () => stats.read(WALLET_A, { top: 10, fromDayMs: T0 - 30 * DAY, toDayMs: T0 }))),
    ];
    const seriesSent = [
      ...(await statements(db, () => series.buckets(WALLET_A, HOUR, T0 - DAY, T0 + HOUR))),
      ...(await statements(db, () => series.buckets(WALLET_A, DAY, T0 - 30 * DAY, T0 + DAY))),
    ];
    const wholeTable = dialect === 'sqlite' ? /^SCAN /m : /Seq Scan/;
    // A range of the time index: both ends of created_at bound it.
    const timeRange =
      dialect === 'sqlite'
        ? /SEARCH proofs USING (COVERING )?INDEX \w+ \(wallet_id=\? AND created_at_ms>\? AND created_at_ms<\?\)/
        : /Index Cond: .*created_at_ms >= .*created_at_ms <= /s;
    let onProofs = 0;
    let ranges = 0;
    for (const s of [...sent, ...seriesSent]) {
      const plan = await planOf(db, s);
      const label = `${s.sql}\n${plan}`;
      t.notRegex(plan, wholeTable, label);
      if (/\bproofs\b/.test(s.sql)) {
        onProofs++;
        if (timeRange.test(plan)) ranges++;
        t.true(timeRange.test(plan) || /\blimit\b/i.test(s.sql), `neither a time range nor a limit:\n${label}`);
      }
    }
    // The partial hours at both ends of the two windows.
    t.true(onProofs >= 7 && ranges >= 4, `${onProofs} statements on proofs, ${ranges} ranges`);
    // Hours and days come from the kept counts, not from the proofs.
    t.true(seriesSent.every((s) => !/\bproofs\b/.test(s.sql)) && seriesSent.length === 4, seriesSent.map((s) => s.sql).join('\n'));
  });

  test.serial(`${dialect}: the statistics' robots and tasks are grouped over one range of the wallet's time index`, async (t) => {
    const db = await fresh();
    await seed(db);
    const breakdown = new KnexProofBreakdown(db);
    const sent = [
      ...(await statements(db, () => breakdown.top(WALLET_A, 'robot', T0 - 2 * HOUR, T0, 10))),
      ...(await statements(db, () => breakdown.top(WALLET_A, 'task', T0 - 3 * HOUR, T0 - HOUR, 10))),
    ];
    t.is(sent.length, 2);
    const timeRange =
      dialect === 'sqlite'
        ? /SEARCH proofs USING INDEX proofs_wallet_created \(wallet_id=\? AND created_at_ms>\? AND created_at_ms<\?\)/
        : /Scan (using|on) proofs_wallet_created\b.*\n\s*Index Cond: \(\(wallet_id = .*created_at_ms >= .*created_at_ms < /;
    for (const s of sent) {
      const plan = await planOf(db, s);
      t.notRegex(plan, dialect === 'sqlite' ? /^SCAN /m : /Seq Scan/, `${s.sql}\n${plan}`);
      t.regex(plan, timeRange, `${s.sql}\n${plan}`);
    }
  });
}
