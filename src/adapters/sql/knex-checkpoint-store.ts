import type { CheckpointStore, PublishedCheckpoint } from '../../application/ports/checkpoint-store.js';
import type { Database } from './database.js';
import { safeNumber } from './knex-log-state.js';

interface CheckpointRow {
  readonly tree_size: number | string;
  readonly root_hash: Uint8Array;
  readonly note: string;
  readonly published_at_ms: number | string;
}

/**
 * Every checkpoint the log signed, in `log_checkpoints`; the latest is the largest. A new one
 * goes in only if it is larger than every one stored, in one statement, under a lock per
 * schema on PostgreSQL (SQLite runs one write at a time anyway): two publishers racing cannot
 * store a smaller size after a larger one.
 */
export class KnexCheckpointStore implements CheckpointStore {
  constructor(private readonly db: Pick<Database, 'knex' | 'dialect'>) {}

  async latest(): Promise<PublishedCheckpoint | null> {
    return toCheckpoint((await this.db.knex('log_checkpoints').select().orderBy('tree_size', 'desc').first()) as CheckpointRow | undefined);
  }

  async atSize(size: number): Promise<PublishedCheckpoint | null> {
    return toCheckpoint((await this.db.knex('log_checkpoints').select().where('tree_size', size).first()) as CheckpointRow | undefined);
  }

  publish(checkpoint: PublishedCheckpoint): Promise<boolean> {
    return this.db.knex.transaction(async (trx) => {
      if (this.db.dialect === 'postgres') await trx.raw(`select pg_advisory_xact_lock(hashtext('proof-registry:log_checkpoints:' || current_schema()))`);
      const inserted = await trx.raw(
        `insert into log_checkpoints (tree_size, root_hash, note, published_at_ms)
         select ?, ?, ?, ? where not exists (select 1 from log_checkpoints where tree_size >= ?)
         returning tree_size`,
        [checkpoint.size, Buffer.from(checkpoint.rootHash), checkpoint.note, checkpoint.publishedAtMs, checkpoint.size],
      );
      return rowsOf(inserted).length === 1;
    });
  }
}

/** The rows of a raw statement: pg answers `{ rows }`, sqlite3 the rows themselves. */
function rowsOf(result: unknown): unknown[] {
  return Array.isArray(result) ? result : ((result as { rows?: unknown[] }).rows ?? []);
}

function toCheckpoint(row: CheckpointRow | undefined): PublishedCheckpoint | null {
  return row
    ? {
        size: safeNumber(row.tree_size, 'log_checkpoints.tree_size'),
        rootHash: new Uint8Array(row.root_hash),
        note: row.note,
        publishedAtMs: safeNumber(row.published_at_ms, 'log_checkpoints.published_at_ms'),
      }
    : null;
}
