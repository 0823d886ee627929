import type { Knex } from 'knex';
import type { AddResult, ProofPage, ProofQuery, ProofStore } from '../../application/ports/proof-store.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import type { Database } from './database.js';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import { PostgresProofWriter } from './postgres-proof-writer.js';
import { leafIndexOf, type ProofWriter, type WriterOptions } from './proof-writer.js';
import { SqliteProofWriter } from './sqlite-proof-writer.js';
import { KnexProofSearch } from './search/knex-proof-search.js';
import { searchTuning, type SearchTuning } from './search/search-tuning.js';
import { toRecord, type ProofRow } from './proof-rows.js';
import { walletKeyOf } from './wallet-keys.js';

/**
 * ProofStore on SQLite or PostgreSQL through Knex. Both dialects must return the same items
 * in the same order with the same cursors (the contract suite runs against each).
 */
export class KnexProofStore implements ProofStore {
  private readonly knex: Knex;
  private readonly queries: KnexProofSearch;

  private readonly commits: GroupCommit;

  /**
   * `options.writer` writes the proofs elsewhere (the writer thread, see
   * threaded-proof-writer.ts); by default on `db.knex`'s connection, with the SQL of its
   * database (sqlite-proof-writer.ts, postgres-proof-writer.ts).
   */
  constructor(
    db: Pick<Database, 'knex' | 'dialect'> & Partial<Pick<Database, 'reader'>>,
    options: Partial<GroupCommitOptions> & WriterOptions & Partial<SearchTuning> & { readonly writer?: ProofWriter } = {},
  ) {
    // Reads use the read connections so they never queue behind a batch of writes.
    this.knex = db.reader ?? db.knex;
    this.queries = new KnexProofSearch(this.knex, db.dialect, searchTuning(options));
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

  async get(wallet: string, proofId: string, options?: { readonly withText?: boolean }): Promise<ProofRecord | null> {
    const row = await this.knex<ProofRow & { leaf_index: number | string | null }>('proofs')
      .select('proofs.*', 'log_leaves.leaf_index')
      .leftJoin('log_leaves', 'log_leaves.proof_id', 'proofs.proof_id')
      .where('proofs.wallet_id', walletKeyOf(this.knex, wallet))
      .where('proofs.proof_id', proofId)
      .first();
    if (!row) return null;
    const record = row.leaf_index === null ? toRecord(row) : { ...toRecord(row), logIndex: leafIndexOf(row.leaf_index) };
    return options?.withText ? { ...record, envelopeJson: row.envelope } : record;
  }

  search(wallet: string, q: ProofQuery): Promise<ProofPage> {
    return this.queries.search(wallet, q);
  }

  count(wallet: string, q: ProofQuery, upTo: number): Promise<number> {
    return this.queries.count(wallet, q, upTo);
  }
}
