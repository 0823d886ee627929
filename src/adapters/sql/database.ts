import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import knexFactory, { type Knex } from 'knex';
import { parseDatabaseUrl, SQLITE_MEMORY } from './database-url.js';

export type Dialect = 'sqlite' | 'postgres';

/**
 * When an SQLite commit is on disk. `full`: WAL synced at every commit, before it is
 * acknowledged; a power cut loses nothing acknowledged. `normal`: the WAL is synced only at
 * checkpoints; a process crash loses nothing, a power cut or kernel panic may lose the last
 * commits (SQLITE_SYNCHRONOUS; docs/storage.md).
 */
export type SqliteSynchronous = 'full' | 'normal';

/** An open database: the Knex instance every SQL adapter shares, and how to close it. */
export interface Database {
  readonly knex: Knex;
  /**
   * Connections for reads that must not queue behind writes, nor writes behind them. On an
   * SQLite file these are separate read-only connections (WAL lets them read while the writer
   * commits); on PostgreSQL a pool of its own (`readerPoolSize`), so any number of concurrent
   * reads can hold only its connections and never take the ones writes need; in memory it is
   * `knex` itself. They see every committed write.
   */
  readonly reader: Knex;
  readonly dialect: Dialect;
  /**
   * Where another connection (a writer thread, another process) finds the same data: the
   * URL it was opened with, or null for `sqlite::memory:`, which only this connection sees.
   */
  readonly sharedUrl: string | null;
  /** PostgreSQL schema the connections use (search_path), when one was asked for. */
  readonly schema?: string;
  /** SQLite: when commits reach the disk, on every connection that writes (the writer thread's too). */
  readonly synchronous?: SqliteSynchronous;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL connection pool size (default 10). SQLite always uses one connection. */
  readonly poolSize?: number;
  /** PostgreSQL: size of the separate pool behind `reader` (default 8; 0: `reader` is `knex`). */
  readonly readerPoolSize?: number;
  /** PostgreSQL only: use (and create) this schema instead of `public`; tests isolate with it. */
  readonly schema?: string;
  /** SQLite: how long a statement waits for another process's lock (default 5000 ms). */
  readonly busyTimeoutMs?: number;
  /** SQLite: when a commit is on disk (default `full`: before it returns). */
  readonly synchronous?: SqliteSynchronous;
  /**
   * Where Knex's own warnings go (a connection that could not be made, a deprecation), each as
   * one line without its stack. Without it Knex prints them, stacks included, to the console.
   */
  readonly onDriverWarning?: (message: string) => void;
}

/** Knex's `log` option for `onDriverWarning`; debug output stays off. */
function driverLog(options: DatabaseOptions): { log: Record<'warn' | 'error' | 'deprecate' | 'debug', (message: unknown) => void> } | Record<string, never> {
  const report = options.onDriverWarning;
  if (report === undefined) return {};
  const oneLine = (message: unknown) => report(String(message).split('\n')[0]!.trim());
  return { log: { warn: oneLine, error: oneLine, deprecate: oneLine, debug: () => undefined } };
}

// Structural views of the driver connections, enough for the per-connection set-up.
type Done = (err: Error | null, connection: unknown) => void;
export interface SqliteConnection {
  exec(sql: string, callback: (err: Error | null) => void): void;
}
interface PgConnection {
  query(sql: string, callback: (err: Error | null) => void): void;
}

/** How long an SQLite statement waits for another connection's lock, unless told otherwise. */
export const DEFAULT_BUSY_TIMEOUT_MS = 5000;

const SCHEMA_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

/** Opens `sqlite:<path>`, `sqlite::memory:` or `postgres://…` (see docs/storage.md). */
export async function openDatabase(url: string, options: DatabaseOptions = {}): Promise<Database> {
  const target = parseDatabaseUrl(url);
  if (target.dialect === 'sqlite') return openSqlite(target.filename, options);
  return openPostgres(target.connectionString, options);
}

async function openSqlite(filename: string, options: DatabaseOptions): Promise<Database> {
  if (filename !== SQLITE_MEMORY) await mkdir(path.dirname(filename), { recursive: true });
  const busyTimeoutMs = Math.max(0, Math.trunc(options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS));
  const synchronous = options.synchronous ?? 'full';
  const knex = knexFactory({
    ...driverLog(options),
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    // One connection: SQLite admits one writer at a time anyway, and a second connection of
    // ours would only meet SQLITE_BUSY and sleep in the busy handler (or fail outright when a
    // read transaction tries to upgrade). Queuing in the pool is cheaper and never deadlocks;
    // concurrent adds are grouped into one batch, and so into one commit and one sync
    // (group-commit.ts). min: 1 keeps the pool
    // from ever reaping the connection: for `:memory:` it *is* the database.
    pool: {
      min: 1,
      max: 1,
      afterCreate: (conn: SqliteConnection, done: Done) =>
        configureSqliteConnection(conn, busyTimeoutMs, synchronous).then(
          () => done(null, conn),
          (err: Error) => done(err, conn),
        ),
    },
  });
  if (filename === SQLITE_MEMORY) return { knex, reader: knex, dialect: 'sqlite', sharedUrl: null, synchronous, close: () => knex.destroy() };
  const reader = knexFactory({
    ...driverLog(options),
    client: 'sqlite3',
    connection: { filename },
    useNullAsDefault: true,
    pool: {
      min: 0,
      max: 2,
      afterCreate: (conn: SqliteConnection, done: Done) =>
        conn.exec(`PRAGMA busy_timeout = ${busyTimeoutMs};\nPRAGMA query_only = 1`, (err) => done(err, conn)),
    },
  });
  return {
    knex,
    reader,
    dialect: 'sqlite',
    sharedUrl: `sqlite:${filename}`,
    synchronous,
    close: async () => {
      await reader.destroy();
      await knex.destroy();
    },
  };
}

/**
 * Settings of every connection that writes to an SQLite file (PRAGMAs are per connection, so
 * they run whenever one opens). WAL lets readers in other processes (CLI, backups) proceed
 * during a write. `synchronous` (SqliteSynchronous): FULL syncs the WAL at each commit, so an
 * acknowledged proof survives a power cut, and the log never has to sign a different root for
 * a size it published; NORMAL syncs only at checkpoints. foreign_keys is off by default in SQLite.
 *
 * The busy timeout comes first so that every later statement waits for other connections'
 * locks. Switching a new file to WAL is the exception: SQLite answers SQLITE_BUSY at once,
 * without calling the busy handler, when another connection holds the file at that moment
 * (several processes starting together on a new file), so that one step is retried here
 * until the same timeout runs out. Once a file is in WAL mode it stays so, and the switch
 * is a no-op for every later connection.
 */
export async function configureSqliteConnection(
  conn: SqliteConnection,
  busyTimeoutMs: number,
  synchronous: SqliteSynchronous = 'full',
  sleep: (ms: number) => Promise<void> = (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
): Promise<void> {
  const timeout = Math.max(0, Math.trunc(busyTimeoutMs));
  const exec = (sql: string) => new Promise<void>((resolve, reject) => conn.exec(sql, (err) => (err ? reject(err) : resolve())));
  await exec(`PRAGMA busy_timeout = ${timeout}`);
  const deadline = Date.now() + timeout;
  for (let pause = 2; ; pause = Math.min(pause * 2, 50)) {
    try {
      await exec('PRAGMA journal_mode = WAL');
      break;
    } catch (err) {
      if (!isSqliteBusy(err) || Date.now() + pause > deadline) throw err;
      await sleep(pause);
    }
  }
  await exec(`PRAGMA synchronous = ${synchronous === 'full' ? 'FULL' : 'NORMAL'};\nPRAGMA foreign_keys = ON`);
}

function isSqliteBusy(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'SQLITE_BUSY';
}

async function openPostgres(connectionString: string, options: DatabaseOptions): Promise<Database> {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`PostgreSQL schema name must match ${SCHEMA_NAME.source}`);
  }
  const poolSize = options.poolSize ?? 10;
  if (!Number.isInteger(poolSize) || poolSize < 1) throw new Error('poolSize must be a positive integer');
  const readerPoolSize = options.readerPoolSize ?? 8;
  if (!Number.isInteger(readerPoolSize) || readerPoolSize < 0) throw new Error('readerPoolSize must be a non-negative integer');
  const pool = (max: number) =>
    knexFactory({
      ...driverLog(options),
      client: 'pg',
      connection: { connectionString },
      pool: {
        min: 0,
        max,
        // Every connection of the pool must see the same schema, not only the first one.
        // JIT off: the planner prices a query by the rows it might read, and on a large table
        // that passes PostgreSQL's JIT thresholds for queries that read a few index entries; at
        // ten million proofs a page of a topic absent from the wallet took 73 ms, 70 of them
        // compiling its plan. No statement here runs long enough to gain from it.
        afterCreate: (conn: PgConnection, done: Done) =>
          conn.query(`SET jit = off${schema !== undefined ? `; SET search_path TO "${schema}"` : ''}`, (err) => done(err, conn)),
      },
    });
  const knex = pool(poolSize);
  // Reads of proofs (lists, searches, lookups by id) have their own connections: with one pool,
  // 8 concurrent readers held every connection and submissions queued behind them (a write
  // rate of 84/s instead of 700/s).
  const reader = readerPoolSize > 0 ? pool(readerPoolSize) : knex;
  if (schema !== undefined) {
    try {
      await knex.raw('CREATE SCHEMA IF NOT EXISTS ??', [schema]);
    } catch (err) {
      // Two openers racing on IF NOT EXISTS: the loser gets a unique violation; the schema exists.
      if (pgCode(err) !== '23505' && pgCode(err) !== '42P06') {
        await Promise.all([knex.destroy(), reader === knex ? undefined : reader.destroy()]);
        throw err;
      }
    }
  }
  const close = async () => {
    await Promise.all([knex.destroy(), reader === knex ? undefined : reader.destroy()]);
  };
  return { knex, reader, dialect: 'postgres', sharedUrl: connectionString, ...(schema !== undefined && { schema }), close };
}

function pgCode(err: unknown): unknown {
  return typeof err === 'object' && err !== null && 'code' in err ? err.code : undefined;
}
