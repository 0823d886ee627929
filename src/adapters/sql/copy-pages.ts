import type { Knex } from 'knex';
import { DatabaseCopyError } from './copy-error.js';
import type { Database } from './database.js';
import type { TableShape } from './table-catalog.js';

/**
 * The copy's streams of rows (copy-database.ts): pages read in key order, read ahead of their
 * writing, and written a few at a time, each page in one transaction.
 */

/** At most this many bound values in one insert. */
const VALUES_PER_INSERT = 30_000;
/**
 * Rows in one insert into SQLite: Knex writes a multi-row insert there as one SELECT per row
 * joined by UNION ALL, and SQLite takes at most 500 terms in a compound SELECT.
 */
const SQLITE_ROWS_PER_INSERT = 500;

/** The rows of `table` in key order, a page at a time, each page after the last one's key. */
export async function* pages(
  knex: Knex | Knex.Transaction,
  table: string,
  shape: TableShape,
  pageRows: number,
): AsyncGenerator<Array<Record<string, unknown>>> {
  let after: unknown[] | undefined;
  for (;;) {
    const query = knex(table)
      .select(shape.columns)
      .orderBy(shape.key.map((column) => ({ column })));
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

/** Page writes, at most `depth` at a time; the first failure is thrown once all have ended. */
export class PageWrites {
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
export async function insertRows(target: Database, table: string, columns: readonly string[], rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
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
