import { isRight } from 'fp-ts/lib/Either.js';
import sqlite3 from 'sqlite3';
import type { PendingRow } from '../src/adapters/sql/proof-writer.js';
import { toProofRecord } from '../src/domain/proof/proof-record.js';
import { toRow } from '../src/adapters/sql/proof-rows.js';
import { WALLET_A } from '../test/support/mothers.js';
import { protocol } from '../test/support/protocol.js';
import { fleetProof } from './fleet-proofs.js';

export interface PendingRowsOptions {
  /** Whose proofs they are (default WALLET_A). */
  readonly wallet?: string;
  /** When the first is received (default 1,800,000,000,000 ms). */
  readonly fromMs?: number;
  /** The fleet proofs' label (their task ids start with it). */
  readonly label?: string;
}

/**
 * Rows for a proof writer, as the registry hands them over: fleet proofs of one wallet, checked
 * and turned into rows, received `stepMs` apart from `fromMs` on. Each call of the function
 * made here goes on from where the last one stopped.
 */
export function pendingRows(stepMs: number, o: PendingRowsOptions = {}): (count: number) => PendingRow[] {
  const { wallet = WALLET_A, fromMs = 1_800_000_000_000, label = 'bench' } = o;
  let next = 0;
  return (count) =>
    Array.from({ length: count }, () => {
      const i = next++;
      const checked = protocol.check(fleetProof(label));
      if (!isRight(checked)) throw new Error('the bench made an invalid envelope');
      const record = toProofRecord(checked.right, wallet, fromMs + i * stepMs);
      return { row: toRow(record), topics: [...new Set(record.topics)] };
    });
}

/** Runs a checkpoint of a SQLite file's WAL on a connection of its own; answers the frames in the WAL as it found it. */
export function walCheckpoint(file: string, mode: 'PASSIVE' | 'TRUNCATE'): Promise<number> {
  return new Promise((resolve, reject) => {
    const db = new sqlite3.Database(file, (err) => {
      if (err) return reject(err);
      db.all<{ log: number }>(`PRAGMA wal_checkpoint(${mode})`, (e, rows) => db.close(() => (e ? reject(e) : resolve(rows[0]!.log))));
    });
  });
}
