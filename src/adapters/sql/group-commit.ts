import type { AddResult } from '../../application/ports/proof-store.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import { toRecord, toRow } from './proof-rows.js';
import type { PendingRow, ProofWriter } from './proof-writer.js';

interface Pending extends PendingRow {
  readonly record: ProofRecord;
  readonly resolve: (result: AddResult) => void;
  readonly reject: (err: unknown) => void;
}

export interface GroupCommitOptions {
  /** Most proofs per batch. SQLite caps a compound SELECT at 500; the writers take up to that. */
  readonly maxBatch: number;
  /** Batches in flight at once. */
  readonly writers: number;
  /** Told the size of each batch as it goes to the writer (e.g. for a metric). */
  readonly onBatch?: (proofs: number) => void;
}

/**
 * Group commit for `add`: proofs that arrive while a batch is being written wait and then go
 * in together, as one batch of the ProofWriter. A lone add starts at once, so it pays no
 * latency; under load the per-commit cost (a WAL append on SQLite, an fsync on PostgreSQL) is
 * shared by the whole batch.
 *
 * Correctness does not depend on batching: each proof is still an atomic insert-or-ignore,
 * and if a batch fails its proofs are retried one per batch, so one bad record cannot fail
 * its neighbours.
 */
export class GroupCommit {
  private readonly queue: Pending[] = [];
  private running = 0;

  constructor(
    private readonly writer: ProofWriter,
    private readonly options: GroupCommitOptions,
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
      const outcomes = await this.writer.write(batch.map(({ row, topics }) => ({ row, topics })));
      if (outcomes.length !== batch.length) throw new Error(`proof writer answered ${outcomes.length} outcomes for ${batch.length} rows`);
      batch.forEach((p, i) => {
        const outcome = outcomes[i]!;
        // A new row holds exactly the record it was made from (toRow), so the record is what a
        // later `get` returns; a duplicate answers with the copy stored first.
        const logIndex = outcome.logIndex === null ? {} : { logIndex: outcome.logIndex };
        p.resolve(
          outcome.stored ? { stored: true, record: { ...p.record, ...logIndex } } : { stored: false, record: { ...toRecord(outcome.existing), ...logIndex } },
        );
      });
    } catch (err) {
      if (batch.length === 1) return batch[0]!.reject(err);
      for (const p of batch) await this.write([p]);
    }
  }
}
