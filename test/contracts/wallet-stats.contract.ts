import test from 'ava';
import type { DeclareTest } from '../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';
import { T0, type FleetFixture } from './fleet-fixture.js';

const DAY = 86_400_000;
const DAY0 = T0 - (T0 % DAY);

/**
 * The WalletStatsStore contract, run against memory, SQLite and PostgreSQL: the figures that
 * stored proofs and recorded verifications move, read back per wallet.
 */
export function walletStatsContract(name: string, make: () => Promise<FleetFixture>, testFn: DeclareTest = test): void {
  testFn(`${name}: stored proofs move the totals, the top robots and tasks and the days; duplicates move nothing`, async (t) => {
    const { proofs, stats } = await make();
    let run = 0;
    const add = (task: string, robot: string | undefined, at: number, score: number | null, runId = `run-${++run}`) =>
      proofs.add({ ...aProofRecord(WALLET_A, { taskId: task, runId, ...(robot !== undefined ? { robotId: robot } : {}) }, at), score });
    await add('weld', 'arm-1', T0, 0.5);
    await add('weld', 'arm-2', T0 + 1000, 0.25);
    await add('weld', 'arm-1', T0 + DAY, 1);
    await add('paint', 'arm-1', T0 + 2 * DAY, null);
    await add('inspect', undefined, T0 + 2 * DAY + 5, 0.75, 'once');
    // A duplicate (the same envelope, so the same proof id) counts nothing.
    const dup = await add('inspect', undefined, T0 + 3 * DAY, 0.75, 'once');
    t.false(dup.stored);
    await proofs.add({ ...aProofRecord(WALLET_B, { taskId: 'b', robotId: 'arm-1' }, T0), score: 0.1 });

    const read = await stats.read(WALLET_A, { top: 2, fromDayMs: DAY0, toDayMs: DAY0 + 2 * DAY });
    t.deepEqual(read.totals, {
      proofsSubmitted: 5,
      scoredProofs: 4,
      scoreSum: 2.5,
      verificationsSuccessful: 0,
      verificationsFailed: 0,
      firstActivityMs: T0,
      lastActivityMs: T0 + 2 * DAY + 5,
    });
    t.deepEqual(read.topRobots, [
      { name: 'arm-1', count: 3 },
      { name: 'arm-2', count: 1 },
    ]);
    t.deepEqual(read.topTasks, [
      { name: 'weld', count: 3 },
      { name: 'inspect', count: 1 },
    ]);
    t.deepEqual(read.days, [
      { dayMs: DAY0, proofs: 2, verifications: 0 },
      { dayMs: DAY0 + DAY, proofs: 1, verifications: 0 },
      { dayMs: DAY0 + 2 * DAY, proofs: 2, verifications: 0 },
    ]);
    t.deepEqual((await stats.read(WALLET_A, { top: 5, fromDayMs: DAY0 + DAY, toDayMs: DAY0 + DAY })).days, [
      { dayMs: DAY0 + DAY, proofs: 1, verifications: 0 },
    ]);
    t.deepEqual((await stats.read(WALLET_B, { top: 5, fromDayMs: DAY0, toDayMs: DAY0 })).totals.proofsSubmitted, 1);
  });

  testFn(`${name}: verification calls are counted per wallet, passed and failed, with the activity they make`, async (t) => {
    const { stats } = await make();
    await stats.recordVerifications(WALLET_A, T0 + DAY, 3, 1);
    await stats.recordVerifications(WALLET_A, T0, 0, 2);
    await stats.recordVerifications(WALLET_A, T0, 0, 0);
    const read = await stats.read(WALLET_A, { top: 5, fromDayMs: DAY0, toDayMs: DAY0 + DAY });
    t.like(read.totals, { proofsSubmitted: 0, verificationsSuccessful: 3, verificationsFailed: 3, firstActivityMs: T0, lastActivityMs: T0 + DAY });
    t.deepEqual(read.days, [
      { dayMs: DAY0, proofs: 0, verifications: 2 },
      { dayMs: DAY0 + DAY, proofs: 0, verifications: 4 },
    ]);
    t.deepEqual(await stats.read(WALLET_B, { top: 5, fromDayMs: DAY0, toDayMs: DAY0 + DAY }), {
      totals: {
        proofsSubmitted: 0,
        scoredProofs: 0,
        scoreSum: 0,
        verificationsSuccessful: 0,
        verificationsFailed: 0,
        firstActivityMs: null,
        lastActivityMs: null,
      },
      topRobots: [],
      topTasks: [],
      days: [],
    });
  });
}
