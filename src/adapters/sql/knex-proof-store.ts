import type { Knex } from 'knex';
import type { AddResult, ProofPage, ProofQuery, ProofStore } from '../../application/ports/proof-store.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import type { Database } from './database.js';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import { PostgresProofWriter } from './postgres-proof-writer.js';
import { leafIndexOf, type ProofWriter, type WriterOptions } from './proof-writer.js';
import { SqliteProofWriter } from './sqlite-proof-writer.js';
import { SUMMARY_COLUMNS, toRecord, toSummary, type ProofRow, type SummaryRow } from './proof-rows.js';
import { walletKeyOf } from './wallet-keys.js';

/**
 * ProofStore on SQLite or PostgreSQL through Knex. Both dialects must return the same items
 * in the same order with the same cursors (the contract suite runs against each).
 */
export class KnexProofStore implements ProofStore {
  private readonly knex: Knex;
  /**
   * How `proof_id` is compared and ordered. Ids are lower-case hex, so byte order is the
   * intended order; PostgreSQL is told so explicitly (the column is also declared `C`, which
   * keeps the indexes usable), SQLite compares bytes by default.
   */
  private readonly proofIdKey: string;

  private readonly commits: GroupCommit;

  /**
   * `options.writer` writes the proofs elsewhere (the writer thread, see
   * threaded-proof-writer.ts); by default on `db.knex`'s connection, with the SQL of its
   * database (sqlite-proof-writer.ts, postgres-proof-writer.ts).
   */
  constructor(
    db: Pick<Database, 'knex' | 'dialect'> & Partial<Pick<Database, 'reader'>>,
    options: Partial<GroupCommitOptions> & WriterOptions & { readonly writer?: ProofWriter } = {},
  ) {
    // Reads use the read connections so they never queue behind a batch of writes.
    this.knex = db.reader ?? db.knex;
    this.proofIdKey = db.dialect === 'postgres' ? 'proof_id collate "C"' : 'proof_id';
    // One batch in flight at a time on both databases. SQLite has one writer anyway. On
    // PostgreSQL, concurrent batches upsert the same device rows (a fleet's devices appear in
    // every batch), so they queue on those row locks: measured with 64 robots, 4 writers
    // managed 282 submissions/s and 1 writer 624/s, its larger batches sharing one commit.
    const sequence = { sequence: options.sequence ?? true };
    const writer = options.writer ?? (db.dialect === 'postgres' ? new PostgresProofWriter(db.knex, sequence) : SqliteProofWriter.onKnex(db.knex, sequence));
    this.commits = new GroupCommit(writer, {
      maxBatch: options.maxBatch ?? 200,
      writers: options.writers ?? 1,
      ...(options.onBatch ? { onBatch: options.onBatch } : {}),
    });
  }

  /** Atomic insert-or-ignore; concurrent adds are grouped into shared transactions. */
  add(record: ProofRecord): Promise<AddResult> {
    return this.commits.add(record);
  }

  async get(wallet: string, proofId: string): Promise<ProofRecord | null> {
    const row = await this.knex<ProofRow & { leaf_index: number | string | null }>('proofs')
      .select('proofs.*', 'log_leaves.leaf_index')
      .leftJoin('log_leaves', 'log_leaves.proof_id', 'proofs.proof_id')
      .where('proofs.wallet_id', walletKeyOf(this.knex, wallet))
      .where('proofs.proof_id', proofId)
      .first();
    if (!row) return null;
    const record = toRecord(row);
    return row.leaf_index === null ? record : { ...record, logIndex: leafIndexOf(row.leaf_index) };
  }

  async search(wallet: string, q: ProofQuery): Promise<ProofPage> {
    const direction = q.order === 'asc' ? 'asc' : 'desc';
    // The wallet's key, looked up once: every index of `proofs` leads with it.
    const query = this.knex<SummaryRow>('proofs').select([...SUMMARY_COLUMNS]).where('wallet_id', walletKeyOf(this.knex, wallet));
    if (q.taskId !== undefined) query.where('task_id', q.taskId);
    if (q.robotId !== undefined) query.where('robot_id', q.robotId);
    if (q.runId !== undefined) query.where('run_id', q.runId);
    if (q.signerPublicKeyB64 !== undefined) query.where('signer_public_key_b64', q.signerPublicKeyB64);
    if (q.createdAfterMs !== undefined) query.where('created_at_ms', '>=', q.createdAfterMs);
    if (q.createdBeforeMs !== undefined) query.where('created_at_ms', '<', q.createdBeforeMs);
    if (q.topic !== undefined) {
      query.whereExists(
        this.knex('proof_topics')
          .select(this.knex.raw('1'))
          .whereRaw('proof_topics.proof_pk = proofs.id and proof_topics.wallet_id = proofs.wallet_id')
          .where('proof_topics.topic', q.topic),
      );
    }
    if (q.text !== undefined) {
      // search_text is stored lower-cased; the needle is matched literally, wildcards included.
      query.whereRaw("search_text like ? escape '\\'", [`%${escapeLike(q.text.toLowerCase())}%`]);
    }
    if (q.after) {
      // A row-value comparison is a single index range condition on both dialects.
      query.whereRaw(`(created_at_ms, ${this.proofIdKey}) ${direction === 'asc' ? '>' : '<'} (?, ?)`, [
        q.after.createdAtMs,
        q.after.proofId,
      ]);
    }
    // One row beyond the page tells whether another page exists, without a COUNT.
    const rows = await query.orderByRaw(`created_at_ms ${direction}, ${this.proofIdKey} ${direction}`).limit(q.limit + 1);
    const page = rows.slice(0, q.limit).map(toSummary);
    const last = page[page.length - 1];
    return {
      items: page,
      next: rows.length > q.limit && last ? { createdAtMs: last.createdAtMs, proofId: last.proofId } : null,
    };
  }
}

/** Makes `%`, `_` and the escape character itself match literally in LIKE … ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
