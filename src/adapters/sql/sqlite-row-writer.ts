import sqlite3 from 'sqlite3';
import { DEFAULT_BUSY_TIMEOUT_MS, sqlitePragmas } from './database.js';
import { deviceCounts, deviceUpsertSql, deviceUpsertValues } from './device-proof-counts.js';
import { firstOfEachProof, outcomesInOrder, proofKey, type PendingRow, type RowOutcome, type RowWriter } from './proof-batch-writer.js';
import { NEW_ROW_COLUMNS, type NewProofRow } from './proof-rows.js';
import { WalCheckpointer, type WalCheckpointOptions } from './wal-checkpointer.js';

type Value = string | number | null;

/** Rows per statement: 13 values a proof keeps every statement well under SQLite's 32,766 variables. */
const ROWS_PER_STATEMENT = 500;
/** Distinct statement texts kept prepared (one per row count of each kind of statement). */
const PREPARED_LIMIT = 256;

export interface SqliteRowWriterOptions {
  /** How long a transaction waits for another connection's write lock (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  readonly checkpoint?: WalCheckpointOptions;
}

/**
 * The proof write transaction (see insertBatch) straight on a node-sqlite3 connection, for the
 * writer thread. Knex rebuilt the SQL of every batch and SQLite compiled it again each time;
 * here each statement text (one per row count) is prepared once and kept, and the values are
 * bound as they are. At idle that halves the cost of a batch; under load it is what decides
 * how many proofs per second the one SQLite writer can take.
 *
 * Transactions begin IMMEDIATE: they take SQLite's write lock first (waiting up to the busy
 * timeout while the registry's main connection writes) rather than failing to upgrade a read
 * later. One transaction runs at a time; later writes wait their turn. The WAL is checkpointed
 * in the background, on a second connection (see wal-checkpointer.ts), not inside a commit.
 */
export class SqliteRowWriter implements RowWriter {
  private readonly prepared = new Map<string, sqlite3.Statement>();
  private tail: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly db: sqlite3.Database,
    private readonly checkpointer: WalCheckpointer,
  ) {}

  /** Opens an existing, migrated database file: the writer's connection and the checkpointer's. */
  static async open(filename: string, options: SqliteRowWriterOptions = {}): Promise<SqliteRowWriter> {
    const busyTimeoutMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS;
    const db = await connect(filename);
    const checkpointConnection = await connect(filename).catch(async (err: unknown) => {
      await new Promise((resolve) => db.close(resolve));
      throw err;
    });
    const writer = new SqliteRowWriter(db, new WalCheckpointer(checkpointConnection, options.checkpoint));
    try {
      await writer.exec(`${sqlitePragmas(busyTimeoutMs)};\nPRAGMA wal_autocheckpoint = 0`);
      await new Promise<void>((resolve, reject) =>
        checkpointConnection.exec(`PRAGMA busy_timeout = ${busyTimeoutMs}`, (err) => (err ? reject(err) : resolve())),
      );
    } catch (err) {
      await writer.close();
      throw err;
    }
    return writer;
  }

  /** WAL restarts run between transactions so far (see wal-checkpointer.ts). */
  get walRestarts(): number {
    return this.checkpointer.restarts;
  }

  write(batch: readonly PendingRow[]): Promise<RowOutcome[]> {
    const result = this.tail.then(() => this.transaction(batch));
    this.tail = result.catch(() => undefined);
    return result;
  }

  async close(): Promise<void> {
    await this.tail;
    for (const statement of this.prepared.values()) await new Promise((resolve) => statement.finalize(resolve));
    this.prepared.clear();
    await this.checkpointer.close();
    await new Promise<void>((resolve, reject) => this.db.close((err) => (err ? reject(err) : resolve())));
  }

  private async transaction(batch: readonly PendingRow[]): Promise<RowOutcome[]> {
    await this.checkpointer.beforeTransaction(this.db);
    await this.exec('BEGIN IMMEDIATE');
    try {
      const outcomes = await this.insert(batch);
      await this.exec('COMMIT');
      this.checkpointer.committed();
      return outcomes;
    } catch (err) {
      await this.exec('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  /** insertBatch's steps: proofs, stored copies of the duplicates, topics, devices. */
  private async insert(batch: readonly PendingRow[]): Promise<RowOutcome[]> {
    const unique = firstOfEachProof(batch);
    const ids = new Map<string, number>();
    for (const chunk of chunks(unique, ROWS_PER_STATEMENT)) {
      const inserted = await this.all<{ id: number; wallet: string; proof_id: string }>(
        `insert into proofs (${NEW_ROW_COLUMNS.join(', ')}) values ${placeholders(chunk.length, NEW_ROW_COLUMNS.length)}
         on conflict (wallet, proof_id) do nothing returning id, wallet, proof_id`,
        chunk.flatMap((p) => NEW_ROW_COLUMNS.map((c): Value => p.row[c])),
      );
      for (const r of inserted) ids.set(proofKey(r), r.id);
    }
    const fresh = unique.filter((p) => ids.has(proofKey(p.row)));
    const duplicates = unique.filter((p) => !ids.has(proofKey(p.row)));

    const existing: NewProofRow[] = [];
    for (const chunk of chunks(duplicates, ROWS_PER_STATEMENT)) {
      existing.push(
        ...(await this.all<NewProofRow>(
          `select ${NEW_ROW_COLUMNS.join(', ')} from proofs where (wallet, proof_id) in (values ${placeholders(chunk.length, 2)})`,
          chunk.flatMap((p) => [p.row.wallet, p.row.proof_id]),
        )),
      );
    }
    const topics = fresh.flatMap((p) => p.topics.map((topic): Value[] => [ids.get(proofKey(p.row))!, p.row.wallet, topic]));
    for (const chunk of chunks(topics, ROWS_PER_STATEMENT)) {
      await this.all(`insert into proof_topics (proof_pk, wallet, topic) values ${placeholders(chunk.length, 3)}`, chunk.flat());
    }
    // Devices move with the proofs actually inserted, in this same transaction.
    for (const chunk of chunks(deviceCounts(fresh.map((p) => p.row)), ROWS_PER_STATEMENT)) {
      await this.all(deviceUpsertSql(chunk.length, 'min', 'max'), deviceUpsertValues(chunk));
    }
    return outcomesInOrder(batch, new Set(ids.keys()), existing);
  }

  private all<T>(sql: string, values: readonly Value[]): Promise<T[]> {
    const statement = this.statement(sql);
    return new Promise<T[]>((resolve, reject) => statement.all<T>(values, (err, rows) => (err ? reject(err) : resolve(rows))));
  }

  private statement(sql: string): sqlite3.Statement {
    let statement = this.prepared.get(sql);
    if (statement === undefined) {
      if (this.prepared.size >= PREPARED_LIMIT) {
        // Forget the oldest (a Map keeps insertion order); it is not running: one statement runs at a time.
        const [oldestSql, oldest] = this.prepared.entries().next().value as [string, sqlite3.Statement];
        this.prepared.delete(oldestSql);
        oldest.finalize();
      }
      statement = this.db.prepare(sql);
      this.prepared.set(sql, statement);
    }
    return statement;
  }

  private exec(sql: string): Promise<void> {
    return new Promise((resolve, reject) => this.db.exec(sql, (err) => (err ? reject(err) : resolve())));
  }
}

function connect(filename: string): Promise<sqlite3.Database> {
  return new Promise<sqlite3.Database>((resolve, reject) => {
    const db: sqlite3.Database = new sqlite3.Database(filename, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(db)));
  });
}

function placeholders(rows: number, columns: number): string {
  const row = `(${Array.from({ length: columns }, () => '?').join(', ')})`;
  return Array.from({ length: rows }, () => row).join(', ');
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
