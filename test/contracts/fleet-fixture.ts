import type { DeviceStore } from '../../src/application/ports/device-store.js';
import type { GroupStore } from '../../src/application/ports/group-store.js';
import type { ProofActivityReader } from '../../src/application/ports/proof-activity.js';
import type { ProofStore } from '../../src/application/ports/proof-store.js';
import type { WalletStatsStore } from '../../src/application/ports/wallet-stats.js';
import { aProofRecord } from '../support/mothers.js';

/**
 * The fleet stores of one technology on one database (or one in-memory fleet), with the
 * proof store whose adds create and count their devices: the device and group contracts
 * (device-store-*.contract.ts, group-store.contract.ts) run on it.
 */
export interface FleetFixture {
  readonly devices: DeviceStore;
  readonly groups: GroupStore;
  readonly proofs: ProofStore;
  readonly activity: ProofActivityReader;
  /** The wallet statistics that `proofs` moves as it stores. */
  readonly stats: WalletStatsStore;
}

export const T0 = Date.parse('2026-11-21T00:00:00Z');
export const MIN = 60_000;

/** Adds `n` proofs of the wallet (of `robotId`'s device, when given), numbered from `from`. */
export async function addProofs(
  proofs: ProofStore,
  wallet: string,
  robotId: string | undefined,
  n: number,
  from = 0,
  receivedAt = (i: number) => T0 + i,
): Promise<void> {
  for (let i = from; i < from + n; i++)
    await proofs.add(aProofRecord(wallet, { taskId: `${robotId ?? 'none'}-${i}`, ...(robotId !== undefined ? { robotId } : {}) }, receivedAt(i)));
}
