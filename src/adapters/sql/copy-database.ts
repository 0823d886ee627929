import { hash } from 'node:crypto';
import type { Knex } from 'knex';
import type { Database } from './database.js';
import { migrations } from '../../../migrations/index.js';

/**
 * Copying a registry's database into another, of either kind: SQLite into PostgreSQL when a
 * registry outgrows one machine, PostgreSQL into SQLite for a local copy. Every table the
 * migrations make is copied row for row with its keys (proof ids, leaf indexes, API key
 * hashes, device ids), so the copy answers every request as the original did: the same
 * proofs with the same envelope text, the same cursors, the same transparency log with its
 * signed checkpoints (whose consistency proofs still hold), the same API keys.
 *
 * The source is read in one read transaction, a snapshot: the copy holds exactly what was
 * committed when it began. Each table is then read back from the target and compared with
 * the source, row by row through an order-free digest of every value; any difference fails
 * the copy. Indexes are the target's own: SQLite's FTS5 index is built by its trigger as the
 * proofs go in, PostgreSQL's trigram index by the inserts themselves.
 */

/** The registry's tables, each after the tables its foreign keys point to. */
export const COPIED_TABLES = [
  'wallets',
  'proofs',
  'proof_topics',
  'log_leaves',
  'log_tiles',
  'log_state',
  'log_checkpoints',
  'api_keys',
  'api_key_usage_daily',
  'api_key_endpoint_usage_daily',
  'sign_in_nonces',
  'revoked_tokens',
  'ledger_balances',
  'device_groups',
  'devices',
  'device_health',
  'proof_rejections_hourly',
  'wallet_activity_daily',
  'wallet_stats',
  'wallet_task_counts',
  'wallet_robot_counts',
  'wallet_proof_hours',
  'wallet_robot_hours',
  'wallet_robot_days',
  'events',
  'event_cursors',
  'webhook_endpoints',
  'webhook_deliveries',
  'webhook_attempts',
  'leases',
] as const;

/** Tables whose `id` a sequence hands out on PostgreSQL: set past the copied ids. */
const SERIAL_TABLES = new Set(['wallets', 'proofs', 'device_health', 'events', 'webhook_deliveries']);

/** Rows read from the source at a time, and at most this many bound values in one insert. */
const PAGE_ROWS = 2_000;
const VALUES_PER_INSERT = 30_000;
/**
 * Rows in one insert into SQLite: Knex writes a multi-row insert there as one SELECT per row
 * joined by UNION ALL, and SQLite takes at most 500 terms in a compound SELECT.
 */
const SQLITE_ROWS_PER_INSERT = 500;

export interface CopyProgress {
  readonly table: string;
  readonly copied: number;
  readonly total: number;
}

export interface CopyOptions {
  /** Called after each page of rows is written, and once at each table's end. */
  readonly onProgress?: (progress: CopyProgress) => void;
  /** Called once every table is written, as the read-back of the target begins. */
  readonly onCheck?: () => void;
  /** Rows per page (tests use few, so that keys continue across pages). */
  readonly pageRows?: number;
}

export interface CopyReport {
  /** Each table with its rows, all of which were read back from the target and matched. */
  readonly tables: ReadonlyArray<{ readonly table: string; readonly rows: number }>;
}

/** Why a copy was refused or failed; the message says what to do. Nothing in the source changes. */
export class DatabaseCopyError extends Error {
  override readonly name = 'DatabaseCopyError';
}

interface TableShape {
  readonly columns: readonly string[];
  readonly key: readonly string[];
}

/**
 * Copies every registry table of `source` into `target`. Both must be migrated to this
 * code's latest migration, and the target must hold no rows. Throws DatabaseCopyError when
 * either is not so, or when a table read back from the target differs from the source.
 */
export async function copyDatabase(source: Database, target: Database, options: CopyOptions = {}): Promise<CopyReport> {
  if (source.sharedUrl !== null && source.sharedUrl === target.sharedUrl && source.schema === target.schema) {
    throw new DatabaseCopyError('the source and the target are the same database');
  }
  await requireLatest(source, 'the source');
  await requireLatest(target, 'the target');
  const shapes = new Map<string, TableShape>();
  for (const table of COPIED_TABLES) {
    const [from, to] = [await shapeOf(source.knex, source.dialect, table), await shapeOf(target.knex, target.dialect, table)];
    if (from.columns.join() !== to.columns.join() || from.key.join() !== to.key.join()) {
      throw new DatabaseCopyError(`${table}: the two databases' columns differ (${from.columns.join(', ')} against ${to.columns.join(', ')})`);
    }
    if (from.key.length === 0) throw new DatabaseCopyError(`${table} has no primary key to read it in order by`);
    shapes.set(table, from);
  }
  await requireTables(source);
  for (const table of COPIED_TABLES) {
    if (await hasRows(target.knex, table)) throw new DatabaseCopyError(`the target already holds rows in ${table}: copy into a newly created, empty database`);
  }
  const pageRows = options.pageRows ?? PAGE_ROWS;
  const report: Array<{ table: string; rows: number }> = [];
  const digests = new Map<string, TableDigest>();
  const snapshot = source.dialect === 'postgres' ? { isolationLevel: 'repeatable read' as const, readOnly: true } : undefined;
  await source.knex.transaction(async (read) => {
    for (const table of COPIED_TABLES) {
      const shape = shapes.get(table)!;
      const total = Number(((await read(table).count({ n: '*' })) as Array<{ n: number | string }>)[0]!.n);
      const digest = new TableDigest();
      let copied = 0;
      const writes = new PageWrites(target.dialect === 'postgres' ? POSTGRES_WRITES : 1);
      try {
        // The next page is read from the source while this one goes into the target.
        for await (const rows of readAhead(pages(read, table, shape, pageRows))) {
          for (const row of rows) digest.add(shape.columns, row);
          await writes.add(async () => {
            await insertRows(target, table, shape.columns, rows);
            copied += rows.length;
            options.onProgress?.({ table, copied, total: Math.max(total, copied) });
          });
        }
      } catch (err) {
        await writes.drain().catch(() => undefined);
        throw err;
      }
      // A table is all in before the next, whose foreign keys may point into it.
      await writes.drain();
      if (copied === 0) options.onProgress?.({ table, copied, total: 0 });
      digests.set(table, digest);
      report.push({ table, rows: copied });
    }
  }, snapshot);
  if (target.dialect === 'postgres') {
    for (const table of SERIAL_TABLES) {
      await target.knex.raw(`select setval(pg_get_serial_sequence(?, 'id'), coalesce((select max(id) from ??), 0) + 1, false)`, [table, table]);
    }
  }
  options.onCheck?.();
  for (const table of COPIED_TABLES) {
    const shape = shapes.get(table)!;
    const copy = new TableDigest();
    for await (const rows of readAhead(pages(target.knex, table, shape, pageRows))) for (const row of rows) copy.add(shape.columns, row);
    const original = digests.get(table)!;
    if (!copy.equals(original)) {
      throw new DatabaseCopyError(`${table}: the copy read back differs from the source (${copy.rows} rows against ${original.rows}); the target is not a faithful copy and must not be used`);
    }
  }
  return { tables: report };
}

/** The rows of `table` in key order, a page at a time, each page after the last one's key. */
async function* pages(knex: Knex | Knex.Transaction, table: string, shape: TableShape, pageRows: number): AsyncGenerator<Array<Record<string, unknown>>> {
  let after: unknown[] | undefined;
  for (;;) {
    const query = knex(table).select(shape.columns).orderBy(shape.key.map((column) => ({ column })));
    if (after !== undefined) {
      const keys = shape.key.map(() => '??').join(', ');
      query.whereRaw(`(${keys}) > (${after.map(() => '?').join(', ')})`, [...shape.key, ...after] as Knex.RawBinding[]);
    }
    const rows = (await query.limit(pageRows)) as Array<Record<string, unknown>>;
    if (rows.length === 0) return;
    yield rows;
    if (rows.length < pageRows) return;
    const last = rows[rows.length - 1]!;
    after = shape.key.map((column) => last[column]);
  }
}

/**
 * Pages written into a PostgreSQL target at once, each in its own transaction on its own
 * connection: one session leaves the server waiting between statements while the next page
 * is read and hashed. An SQLite file takes one writer at a time.
 */
const POSTGRES_WRITES = 2;

/** Page writes, at most `depth` at a time; the first failure is thrown once all have ended. */
class PageWrites {
  private readonly running: Array<Promise<void>> = [];

  constructor(private readonly depth: number) {}

  /** Starts `write` once fewer than `depth` are running. */
  async add(write: () => Promise<void>): Promise<void> {
    if (this.running.length >= this.depth) await this.running.shift();
    const started = write();
    started.catch(() => undefined); // thrown by add or drain, in turn
    this.running.push(started);
  }

  /** Waits for every write; throws the first that failed. */
  async drain(): Promise<void> {
    const results = await Promise.allSettled(this.running.splice(0));
    const failed = results.find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/**
 * One page into the target, in one transaction. A page the target refuses fails the copy,
 * named by its table, with the database's reason (without the statement, which holds the
 * page's rows).
 */
async function insertRows(target: Database, table: string, columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
  const perInsert = Math.max(1, Math.min(Math.floor(VALUES_PER_INSERT / columns.length), target.dialect === 'sqlite' ? SQLITE_ROWS_PER_INSERT : Infinity));
  try {
    await target.knex.transaction(async (trx) => {
      for (let i = 0; i < rows.length; i += perInsert) await trx(table).insert(rows.slice(i, i + perInsert));
    });
  } catch (err) {
    throw new DatabaseCopyError(`${table}: the target refused rows: ${reasonOf(err)}; the target is incomplete: drop it, create it again and copy again`);
  }
}

/**
 * A driver's reason for a failed insert. Knex puts the statement, values and all, before it
 * (`insert into … - reason`), which for a page of rows is megabytes of text.
 */
function reasonOf(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  if (message.startsWith('insert into ')) message = message.slice(message.lastIndexOf(' - ') + 3);
  return message.length > 500 ? `${message.slice(0, 500)}…` : message;
}

/**
 * The items of `source`, each next one asked for before the current one is handed on, so
 * that reading overlaps whatever the consumer does with the item (writing it elsewhere,
 * hashing it). A read that fails is reported when its turn comes; when the consumer stops
 * early, the read in flight is let finish before the source is closed.
 */
export async function* readAhead<T>(source: AsyncGenerator<T>): AsyncGenerator<T> {
  let next = source.next();
  try {
    for (;;) {
      const item = await next;
      if (item.done) return;
      next = source.next();
      // Awaited on the next turn, or in `finally`: not an unhandled rejection meanwhile.
      next.catch(() => undefined);
      yield item.value;
    }
  } finally {
    await next.catch(() => undefined);
    await source.return(undefined);
  }
}

/**
 * An order-free digest of a table's rows: their count and the sum, modulo 2^128, of each
 * row's SHA-256 (its first 16 bytes). The two databases return the same values in different
 * types (SQLite's 0/1 for PostgreSQL's booleans, PostgreSQL's bigint as text), so each value
 * is taken in one form first; text, blobs and numbers are compared exactly. A row's values
 * are written each with its length, so no two rows' texts run together alike.
 */
export class TableDigest {
  rows = 0;
  /** The sum, as four 32-bit words, most significant first. */
  private readonly sum = new Uint32Array(4);

  add(columns: readonly string[], row: Record<string, unknown>): void {
    let text = '';
    for (const column of columns) text += comparable(row[column]);
    const rowHash = hash('sha256', text, 'buffer') as unknown as Buffer;
    let carry = 0;
    for (let word = 3; word >= 0; word--) {
      const total = this.sum[word]! + rowHash.readUInt32BE(word * 4) + carry;
      this.sum[word] = total >>> 0;
      carry = total > 0xffffffff ? 1 : 0;
    }
    this.rows++;
  }

  equals(other: TableDigest): boolean {
    return this.rows === other.rows && this.sum.every((word, i) => word === other.sum[i]);
  }
}

/** A value in the one form both databases' values are compared in: its kind, its length, its text. */
function comparable(value: unknown): string {
  if (value === null || value === undefined) return 'n;';
  let kind = 'v';
  let text: string;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) [kind, text] = ['b', Buffer.from(value).toString('hex')];
  else if (typeof value === 'boolean') text = value ? '1' : '0';
  else if (typeof value === 'bigint' || typeof value === 'number') text = value.toString();
  else if (typeof value === 'string') text = value;
  else throw new DatabaseCopyError(`a value of an unexpected kind (${Object.prototype.toString.call(value)}) cannot be compared`);
  return `${kind}${text.length}:${text}`;
}

async function requireLatest(db: Database, which: string): Promise<void> {
  // Read from Knex's table itself: its migrator refuses to list a database with migrations it does not know.
  const applied = (await db.knex('knex_migrations').orderBy('id').pluck('name').catch(() => [])) as string[];
  const known = migrations.map((m) => m.name);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0) throw new DatabaseCopyError(`${which} has migrations this version does not know (${unknown.join(', ')}): copy it with the version that made them`);
  const pending = known.filter((name) => !applied.includes(name));
  if (pending.length > 0) throw new DatabaseCopyError(`${which} is not migrated to this version (${pending.join(', ')} not applied): run proof-registry migrate on it first`);
}

/** The source holds no table the copy would leave behind. */
async function requireTables(source: Database): Promise<void> {
  const names =
    source.dialect === 'sqlite'
      ? ((await source.knex.raw("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like 'proofs\\_fts%' escape '\\'")) as Array<{ name: string }>).map((r) => r.name)
      : ((await source.knex.raw('select tablename as name from pg_catalog.pg_tables where schemaname = current_schema()')) as { rows: Array<{ name: string }> }).rows.map((r) => r.name);
  const left = names.filter((name) => !name.startsWith('knex_') && !(COPIED_TABLES as readonly string[]).includes(name));
  if (left.length > 0) throw new DatabaseCopyError(`the source has tables this version does not copy (${left.join(', ')})`);
}

async function hasRows(knex: Knex, table: string): Promise<boolean> {
  return (await knex(table).select(knex.raw('1 as one')).limit(1)).length > 0;
}

/** A table's columns (sorted by name, so that both databases list them alike) and its primary key in key order. */
async function shapeOf(knex: Knex, dialect: Database['dialect'], table: string): Promise<TableShape> {
  if (dialect === 'sqlite') {
    const info = (await knex.raw('select name, pk from pragma_table_info(?)', [table])) as Array<{ name: string; pk: number }>;
    const key = info.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name);
    return { columns: info.map((c) => c.name).sort(), key };
  }
  const columns = (
    (await knex.raw('select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ?', [table])) as { rows: Array<{ name: string }> }
  ).rows.map((r) => r.name);
  const key = (
    (await knex.raw(
      `select a.attname as name from pg_catalog.pg_index i
         join pg_catalog.pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
        where i.indrelid = to_regclass(?) and i.indisprimary
        order by array_position(i.indkey::int2[], a.attnum)`,
      [table],
    )) as { rows: Array<{ name: string }> }
  ).rows.map((r) => r.name);
  return { columns: columns.sort(), key };
}
