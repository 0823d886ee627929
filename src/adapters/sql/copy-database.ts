import type { Database } from './database.js';
import { DatabaseCopyError } from './copy-error.js';
import { insertRows, pages, PageWrites, readAhead } from './copy-pages.js';
import { hasRows, requireLatest, requireTables, shapeOf, type TableShape } from './table-catalog.js';
import { TableDigest } from './table-digest.js';

export { DatabaseCopyError } from './copy-error.js';

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
  'log_cosignatures',
  'log_witnesses',
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

/** Rows read from the source at a time. */
const PAGE_ROWS = 2_000;

/**
 * Pages written into a PostgreSQL target at once, each in its own transaction on its own
 * connection: one session leaves the server waiting between statements while the next page
 * is read and hashed. An SQLite file takes one writer at a time.
 */
const POSTGRES_WRITES = 2;

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
  await requireTables(source, COPIED_TABLES);
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
      throw new DatabaseCopyError(
        `${table}: the copy read back differs from the source (${copy.rows} rows against ${original.rows}); the target is not a faithful copy and must not be used`,
      );
    }
  }
  return { tables: report };
}
