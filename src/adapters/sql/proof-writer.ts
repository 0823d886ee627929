import type { NewProofRow } from './proof-rows.js';

/** One proof on its way into the database: its row and its distinct topics. */
export interface PendingRow {
  readonly row: NewProofRow;
  readonly topics: readonly string[];
}

/**
 * What became of one pending row: inserted, or a copy was already stored (and here it is);
 * either way the proof's leaf index in the transparency log (null when the writer does not
 * sequence, see `WriterOptions.sequence`).
 */
export type RowOutcome =
  { readonly stored: true; readonly logIndex: number | null } | { readonly stored: false; readonly existing: NewProofRow; readonly logIndex: number | null };

export interface WriterOptions {
  /**
   * Give each new proof_id its leaf in the transparency log, in the transaction that stores it
   * (default true). Off only to measure what sequencing costs: proofs stored so never enter the log.
   */
  readonly sequence?: boolean;
}

/**
 * The one way proofs are written: a batch of rows, each an atomic insert-or-ignore with its
 * topics and its device's counts, outcomes in batch order. Each database has its own SQL
 * (sqlite-proof-writer.ts, postgres-proof-writer.ts); threaded-proof-writer.ts runs either
 * on a thread of its own. Which batches to write, and when, is the group commit's business
 * (group-commit.ts), not the writer's.
 */
export interface ProofWriter {
  write(batch: readonly PendingRow[]): Promise<RowOutcome[]>;
  /** Lets go of connections and statements; the store's owner calls it before closing the database. */
  close?(): Promise<void>;
}

/** Identifies a proof of a wallet: the unique key of `proofs`. */
export const proofKey = (row: Pick<NewProofRow, 'wallet' | 'proof_id'>): string => `${row.wallet}\u0000${row.proof_id}`;

/**
 * The first copy of each (wallet, proof_id) in the batch, as if the adds ran one by one, in
 * key order: concurrent PostgreSQL transactions then take index locks in the same order and
 * cannot deadlock on each other.
 */
export function firstOfEachProof(batch: readonly PendingRow[]): PendingRow[] {
  const firsts = new Map<string, PendingRow>();
  for (const p of batch) if (!firsts.has(proofKey(p.row))) firsts.set(proofKey(p.row), p);
  return [...firsts.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, p]) => p);
}

/**
 * Each pending row's outcome, in batch order: the first copy of a newly inserted key was
 * stored; every other copy is a duplicate and gets the stored row (the earlier copy in this
 * batch, or `existing`, read from the database).
 */
export function outcomesInOrder(
  batch: readonly PendingRow[],
  inserted: ReadonlySet<string>,
  existing: readonly NewProofRow[],
  /** Leaf index by proof_id, when the writer sequences. */
  logIndexes: ReadonlyMap<string, number> | null = null,
): RowOutcome[] {
  const stored = new Map<string, NewProofRow>(existing.map((row) => [proofKey(row), row]));
  const claimed = new Set<string>();
  return batch.map((p): RowOutcome => {
    const k = proofKey(p.row);
    const logIndex = logIndexes === null ? null : (logIndexes.get(p.row.proof_id) ?? missingLeaf(p.row.proof_id));
    if (inserted.has(k) && !claimed.has(k)) {
      claimed.add(k);
      stored.set(k, p.row);
      return { stored: true, logIndex };
    }
    const row = stored.get(k);
    if (!row) throw new Error('proof insert was ignored but no stored copy was found');
    return { stored: false, existing: row, logIndex };
  });
}

/** A stored proof without a leaf: the log would miss an acknowledged proof, so the write fails loudly. */
function missingLeaf(proofId: string): never {
  throw new Error(`proof ${proofId} is stored but has no leaf in the transparency log`);
}

/** A leaf index as a driver returns it (pg: bigint as text). */
export function leafIndexOf(value: number | string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`log_leaves.leaf_index holds ${String(value)}, not a leaf index`);
  return n;
}
