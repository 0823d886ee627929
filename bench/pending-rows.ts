import { isRight } from 'fp-ts/lib/Either.js';
import type { PendingRow } from '../src/adapters/sql/proof-writer.js';
import { toProofRecord } from '../src/domain/proof/proof-record.js';
import { toRow } from '../src/adapters/sql/proof-rows.js';
import { WALLET_A } from '../test/support/mothers.js';
import { protocol } from '../test/support/protocol.js';
import { fleetProof } from './fleet-proofs.js';

/**
 * Rows for a proof writer, as the registry hands them over: fleet proofs of one wallet, checked
 * and turned into rows, received `stepMs` apart from 1,800,000,000,000 ms on. Each call of the
 * function made here goes on from where the last one stopped.
 */
export function pendingRows(stepMs: number): (count: number) => PendingRow[] {
  let next = 0;
  return (count) =>
    Array.from({ length: count }, () => {
      const i = next++;
      const checked = protocol.check(fleetProof('bench'));
      if (!isRight(checked)) throw new Error('the bench made an invalid envelope');
      const record = toProofRecord(checked.right, WALLET_A, 1_800_000_000_000 + i * stepMs);
      return { row: toRow(record), topics: [...new Set(record.topics)] };
    });
}
