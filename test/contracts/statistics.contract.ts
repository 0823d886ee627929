import test from 'ava';
import { isLeft, isRight } from 'fp-ts/lib/Either.js';
import { GetActivitySeries } from '../../src/application/dashboard/get-activity-series.js';
import { GetStatistics } from '../../src/application/dashboard/get-statistics.js';
import type { KeyStore } from '../../src/application/ports/key-store.js';
import type { ProofBreakdownReader } from '../../src/application/ports/proof-breakdown.js';
import type { ProofStore } from '../../src/application/ports/proof-store.js';
import type { KeyUsageHistory, ProofRejectionLog, ProofSeriesReader } from '../../src/application/ports/usage-series.js';
import type { DeclareTest } from '../support/databases.js';
import { ManualClock } from '../support/identity.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';
import { aKeyRecord } from './key-store.contract.js';

export interface StatisticsStores {
  proofs: ProofStore;
  series: ProofSeriesReader;
  breakdown: ProofBreakdownReader;
  rejections: ProofRejectionLog;
  keys: KeyStore;
  usage: KeyUsageHistory;
}

const DAY = 86_400_000;
const D0 = Date.parse('2026-11-18T00:00:00Z'); // a Wednesday

/**
 * The statistics read from each adapter: counts of a known set of proofs (robots, tasks, hours,
 * a proof without a robot), refusals and key usage, beside a second wallet's, which must not
 * show. `make` returns empty stores sharing one database.
 */
export function statisticsContract(name: string, make: () => Promise<StatisticsStores>, testFn: DeclareTest = test): void {
  const seed = async (s: StatisticsStores) => {
    const at = (wallet: string, createdAt: string, taskId: string, robotId?: string) =>
      s.proofs.add(aProofRecord(wallet, { taskId, createdAt, ...(robotId ? { robotId } : {}) }));
    await at(WALLET_A, '2026-11-18T09:05:00Z', 'pick', 'arm-1');
    await at(WALLET_A, '2026-11-18T09:35:00Z', 'pick', 'arm-2');
    await at(WALLET_A, '2026-11-18T09:59:59.999Z', 'place', 'arm-1');
    await at(WALLET_A, '2026-11-18T10:00:00Z', 'place', 'arm-3');
    await at(WALLET_A, '2026-11-18T10:20:00Z', 'scan');
    await at(WALLET_A, '2026-11-17T23:30:00Z', 'pick', 'arm-2');
    await at(WALLET_A, '2026-11-10T12:00:00Z', 'sort', 'arm-4');
    for (const [i, createdAt] of ['2026-11-18T09:10:00Z', '2026-11-18T09:20:00Z', '2026-11-18T10:10:00Z'].entries())
      await at(WALLET_B, createdAt, `b-${i}`, 'arm-1');
    await s.rejections.add([
      { wallet: WALLET_A, hourMs: D0 + 9 * 3_600_000, count: 2 },
      { wallet: WALLET_B, hourMs: D0 + 9 * 3_600_000, count: 5 },
    ]);
    await s.keys.create(aKeyRecord(WALLET_A, { keyId: 'key_a1', keyHash: 'a'.repeat(64) }));
    await s.keys.create(aKeyRecord(WALLET_A, { keyId: 'key_a2', keyHash: 'b'.repeat(64) }));
    await s.keys.create(aKeyRecord(WALLET_B, { keyId: 'key_b', keyHash: 'c'.repeat(64) }));
    await s.usage.addByEndpoint([
      { keyId: 'key_a1', dayMs: D0, endpoint: 'POST /v1/proofs', requests: 6, errors: 1 },
      { keyId: 'key_a2', dayMs: D0, endpoint: 'POST /v1/proofs', requests: 4, errors: 0 },
      { keyId: 'key_a2', dayMs: D0, endpoint: 'GET /v1/proofs', requests: 3, errors: 0 },
      { keyId: 'key_a1', dayMs: D0 - 9 * DAY, endpoint: 'GET /v1/proofs', requests: 100, errors: 0 },
      { keyId: 'key_b', dayMs: D0, endpoint: 'POST /v1/proofs', requests: 50, errors: 7 },
    ]);
  };
  const statisticsOf = (s: StatisticsStores) => {
    const clock = new ManualClock(Date.parse('2026-11-18T10:30:00Z'));
    const none = { flush: async () => undefined };
    const series = new GetActivitySeries(s.series, s.rejections, none, clock);
    return new GetStatistics(series, s.series, s.breakdown, s.keys, s.usage, none, clock);
  };

  testFn(`${name}: the last 24 hours count the wallet's own proofs, refusals and requests, and nothing of another wallet`, async (t) => {
    const s = await make();
    await seed(s);
    const r = await statisticsOf(s).execute({ caller: WALLET_A, wallet: WALLET_A, range: '24h', top: 2 });
    if (!isRight(r)) return t.fail(JSON.stringify(r.left));
    const st = r.right;
    t.deepEqual([st.window.size, st.window.fromMs, st.window.toMs], ['hour', Date.parse('2026-11-17T11:00:00Z'), Date.parse('2026-11-18T11:00:00Z')]);
    t.is(st.proofs, 6);
    t.is(st.refused, 2);
    t.deepEqual(st.points.at(-2), { startMs: D0 + 9 * 3_600_000, proofs: 3, refused: 2 });
    t.deepEqual(st.points.at(-1), { startMs: D0 + 10 * 3_600_000, proofs: 2, refused: 0 });
    t.deepEqual(st.robots, {
      entries: [
        { id: 'arm-1', proofs: 2 },
        { id: 'arm-2', proofs: 2 },
      ],
      other: 2,
      total: 6,
    });
    t.deepEqual(st.tasks, {
      entries: [
        { id: 'pick', proofs: 3 },
        { id: 'place', proofs: 2 },
      ],
      other: 1,
      total: 6,
    });
    // Wednesday is row 2, Tuesday row 1.
    t.is(st.weekdayHours[2]![9], 3);
    t.is(st.weekdayHours[2]![10], 2);
    t.is(st.weekdayHours[1]![23], 1);
    t.is(
      st.weekdayHours.flat().reduce((a, b) => a + b, 0),
      6,
    );
    t.deepEqual(st.usage, {
      fromMs: D0 - DAY,
      toMs: D0 + DAY,
      requests: 13,
      errors: 1,
      endpoints: [
        { endpoint: 'POST /v1/proofs', requests: 10, errors: 1 },
        { endpoint: 'GET /v1/proofs', requests: 3, errors: 0 },
      ],
    });
  });

  testFn(`${name}: a custom window by hour and a named range by day; another wallet's address is refused`, async (t) => {
    const s = await make();
    await seed(s);
    const use = statisticsOf(s);
    const hour = await use.execute({ caller: WALLET_A, wallet: WALLET_A, fromMs: D0 + 9 * 3_600_000, toMs: D0 + 10 * 3_600_000, top: 10 });
    if (!isRight(hour)) return t.fail();
    t.is(hour.right.range, 'custom');
    t.is(hour.right.proofs, 3);
    t.deepEqual(hour.right.robots.entries, [
      { id: 'arm-1', proofs: 2 },
      { id: 'arm-2', proofs: 1 },
    ]);
    const week = await use.execute({ caller: WALLET_A, wallet: WALLET_A, range: '30d', top: 10 });
    if (!isRight(week)) return t.fail();
    t.is(week.right.window.size, 'day');
    t.is(week.right.proofs, 7);
    t.deepEqual(week.right.tasks.entries.at(-1), { id: 'sort', proofs: 1 });
    t.is(week.right.usage.requests, 113, 'usage of the days in the range');
    const theirs = await use.execute({ caller: WALLET_A, wallet: WALLET_B, range: '24h', top: 10 });
    t.true(isLeft(theirs) && theirs.left._tag === 'NotYourWallet');
    const b = await use.execute({ caller: WALLET_B, wallet: WALLET_B, range: '24h', top: 10 });
    if (!isRight(b)) return t.fail();
    t.deepEqual([b.right.proofs, b.right.refused, b.right.usage.requests], [3, 5, 50]);
    t.deepEqual(b.right.robots.entries, [{ id: 'arm-1', proofs: 3 }]);
  });
}
