import sqlite3 from 'sqlite3';

/** Distinct statement texts kept prepared (one per row count of each kind of statement). */
const PREPARED_LIMIT = 256;

/**
 * Runs statements on a node-sqlite3 connection. With `keep`, each statement text is prepared
 * once and kept (at most PREPARED_LIMIT, the oldest forgotten first); without, every statement
 * is prepared and finalized by node-sqlite3 as it runs, which a borrowed connection needs: its
 * owner closes it, and SQLite refuses to close a connection with statements left.
 */
export class SqliteStatements {
  private readonly prepared: Map<string, sqlite3.Statement> | null;

  constructor(keep: boolean) {
    this.prepared = keep ? new Map() : null;
  }

  all<T>(db: sqlite3.Database, sql: string, values: readonly SqlValue[]): Promise<T[]> {
    if (this.prepared === null) return new Promise<T[]>((resolve, reject) => db.all<T>(sql, values, (err, rows) => (err ? reject(err) : resolve(rows))));
    const statement = this.statement(db, this.prepared, sql);
    return new Promise<T[]>((resolve, reject) =>
      statement.all<T>(values, (err, rows) => {
        if (!err) return resolve(rows);
        // A statement that failed mid-step (SQLITE_BUSY on a write) is left active, and while a
        // statement is active SQLite does not commit: every later write on this connection
        // would then succeed, return its rows, and never commit, holding the write lock.
        // Resetting it ends its transaction, as a statement that fails in autocommit must.
        statement.reset(() => reject(err));
      }),
    );
  }

  /** Finalizes every statement kept; call when none runs. */
  async close(): Promise<void> {
    for (const statement of this.prepared?.values() ?? []) await new Promise((resolve) => statement.finalize(resolve));
    this.prepared?.clear();
  }

  private statement(db: sqlite3.Database, prepared: Map<string, sqlite3.Statement>, sql: string): sqlite3.Statement {
    let statement = prepared.get(sql);
    if (statement === undefined) {
      if (prepared.size >= PREPARED_LIMIT) {
        // Forget the oldest (a Map keeps insertion order); it is not running: one statement runs at a time.
        const [oldestSql, oldest] = prepared.entries().next().value as [string, sqlite3.Statement];
        prepared.delete(oldestSql);
        oldest.finalize();
      }
      statement = db.prepare(sql);
      prepared.set(sql, statement);
    }
    return statement;
  }
}

export type SqlValue = string | number | null;

export function exec(db: sqlite3.Database, sql: string): Promise<void> {
  return new Promise((resolve, reject) => db.exec(sql, (err) => (err ? reject(err) : resolve())));
}

export function connect(filename: string): Promise<sqlite3.Database> {
  return new Promise<sqlite3.Database>((resolve, reject) => {
    const db: sqlite3.Database = new sqlite3.Database(filename, sqlite3.OPEN_READWRITE, (err) => (err ? reject(err) : resolve(db)));
  });
}
