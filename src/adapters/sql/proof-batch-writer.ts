import type { Knex } from 'knex';
import type { AddResult } from '../../application/ports/proof-store.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import { countDeviceProofs } from './device-proof-counts.js';
import { toRecord, toRow, type NewProofRow, type ProofRow } from './proof-rows.js';
import { knexWalletLookup, WalletKeys } from './wallet-keys.js';

/** One proof on its way into the database: its row and its distinct topics. */
export interface PendingRow {
  readonly row: NewProofRow;
  readonly topics: readonly string[];
}

/** What became of one pending row: inserted, or a copy was already stored (and here it is). */
export type RowOutcome = { readonly stored: true } | { readonly stored: false; readonly existing: NewProofRow };

/**
 * Writes a batch of rows in one transaction, outcomes in batch order. The batch writer does
 * not care where: on this thread's connection, or on a writer thread's own (see
 * worker-row-writer.ts), which keeps the round trips of a transaction off a busy event loop.
 */
export interface RowWriter {
  write(batch: readonly PendingRow[]): Promise<RowOutcome[]>;
  close?(): Promise<void>;
}

/** Runs each batch as a transaction on the given connection(s). */
export class InlineRowWriter implements RowWriter {
  private readonly walletKeys: WalletKeys;

  constructor(private readonly knex: Knex) {
    this.walletKeys = new WalletKeys(knexWalletLookup(knex));
  }

  async write(batch: readonly PendingRow[]): Promise<RowOutcome[]> {
    // Before the transaction: a key remembered from a transaction that then rolled back would not exist.
    const keys = await this.walletKeys.of(batch.map((p) => p.row.wallet));
    return this.knex.transaction((trx) => insertBatch(trx, batch, keys));
  }
}

interface Pending extends PendingRow {
  readonly record: ProofRecord;
  readonly resolve: (result: AddResult) => void;
  readonly reject: (err: unknown) => void;
}

export interface BatchWriterOptions {
  /** Most proofs per transaction. SQLite caps a compound SELECT (Knex's multi-row insert) at 500. */
  readonly maxBatch: number;
  /** Transactions in flight at once: 1 for SQLite (one writer), a few for PostgreSQL. */
  readonly writers: number;
  /** Told the size of each batch as it goes to the row writer (e.g. for a metric). */
  readonly onBatch?: (proofs: number) => void;
}

const TOPIC_ROWS_PER_INSERT = 500;

/**
 * Group commit for `add`: proofs that arrive while a transaction is running wait and then go
 * in together, as one multi-row INSERT … ON CONFLICT DO NOTHING plus one insert of their
 * topics. A lone add starts at once, so it pays no latency; under load the per-commit cost
 * (a WAL append on SQLite, an fsync on PostgreSQL) is shared by the whole batch.
 *
 * Correctness does not depend on batching: each proof is still an atomic insert-or-ignore,
 * and if a batch fails its proofs are retried one per transaction, so one bad record cannot
 * fail its neighbours.
 */
export class ProofBatchWriter {
  private readonly queue: Pending[] = [];
  private running = 0;

  constructor(
    private readonly rows: RowWriter,
    private readonly options: BatchWriterOptions,
  ) {}

  add(record: ProofRecord): Promise<AddResult> {
    return new Promise<AddResult>((resolve, reject) => {
      this.queue.push({ record, row: toRow(record), topics: [...new Set(record.topics)], resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.running < this.options.writers && this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.maxBatch);
      this.options.onBatch?.(batch.length);
      this.running++;
      void this.write(batch).finally(() => {
        this.running--;
        this.pump();
      });
    }
  }

  private async write(batch: Pending[]): Promise<void> {
    try {
      const outcomes = await this.rows.write(batch.map(({ row, topics }) => ({ row, topics })));
      if (outcomes.length !== batch.length) throw new Error(`row writer answered ${outcomes.length} outcomes for ${batch.length} rows`);
      batch.forEach((p, i) => {
        const outcome = outcomes[i]!;
        // A new row holds exactly the record it was made from (toRow), so the record is what a
        // later `get` returns; a duplicate answers with the copy stored first.
        p.resolve(outcome.stored ? { stored: true, record: p.record } : { stored: false, record: toRecord(outcome.existing) });
      });
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      for (const p of batch) await this.write([p]);
    }
  }
}

/** Inserts what is new, reads what already existed; outcomes come back in `batch` order. */
export async function insertBatch(trx: Knex.Transaction, batch: readonly PendingRow[], walletKeys: ReadonlyMap<string, number>): Promise<RowOutcome[]> {
  const unique = firstOfEachProof(batch);
  const inserted: Array<{ id: number | string; wallet: string; proof_id: string }> = await trx('proofs')
    .insert(unique.map((p) => ({ ...p.row, wallet_id: WalletKeys.get(walletKeys, p.row.wallet) })))
    .onConflict(['wallet_id', 'proof_id'])
    .ignore()
    .returning(['id', 'wallet', 'proof_id']);
  const newIds = new Map(inserted.map((r) => [proofKey(r), r.id]));

  const topicRows = unique.flatMap((p) => {
    const id = newIds.get(proofKey(p.row));
    const walletId = WalletKeys.get(walletKeys, p.row.wallet);
    return id === undefined ? [] : p.topics.map((topic) => ({ proof_pk: id, wallet_id: walletId, topic }));
  });
  for (let i = 0; i < topicRows.length; i += TOPIC_ROWS_PER_INSERT) {
    await trx('proof_topics').insert(topicRows.slice(i, i + TOPIC_ROWS_PER_INSERT));
  }
  // Devices move with the proofs actually inserted, in this same transaction (never for a duplicate).
  await countDeviceProofs(trx, unique.filter((p) => newIds.has(proofKey(p.row))).map((p) => p.row));

  // Under PostgreSQL a conflicting insert waited for the other transaction to commit; this
  // statement gets a fresh snapshot (READ COMMITTED) and so sees the row that won.
  const newKeys = new Set(newIds.keys());
  return outcomesInOrder(batch, newKeys, await storedCopies(trx, unique, newKeys, walletKeys));
}

/** The stored rows of the proofs in `unique` that were not inserted (`inserted` holds proofKeys). */
export async function storedCopies(
  q: Knex | Knex.Transaction,
  unique: readonly PendingRow[],
  inserted: ReadonlySet<string>,
  walletKeys: ReadonlyMap<string, number>,
): Promise<NewProofRow[]> {
  const missing = unique.filter((p) => !inserted.has(proofKey(p.row))).map((p) => [WalletKeys.get(walletKeys, p.row.wallet), p.row.proof_id]);
  if (missing.length === 0) return [];
  const rows: ProofRow[] = await q<ProofRow>('proofs').whereIn(['wallet_id', 'proof_id'], missing);
  return rows.map(({ id: _id, wallet_id: _walletId, ...row }) => row);
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
export function outcomesInOrder(batch: readonly PendingRow[], inserted: ReadonlySet<string>, existing: readonly NewProofRow[]): RowOutcome[] {
  const stored = new Map<string, NewProofRow>(existing.map((row) => [proofKey(row), row]));
  const claimed = new Set<string>();
  return batch.map((p): RowOutcome => {
    const k = proofKey(p.row);
    if (inserted.has(k) && !claimed.has(k)) {
      claimed.add(k);
      stored.set(k, p.row);
      return { stored: true };
    }
    const row = stored.get(k);
    if (!row) throw new Error('proof insert was ignored but no stored copy was found');
    return { stored: false, existing: row };
  });
}
