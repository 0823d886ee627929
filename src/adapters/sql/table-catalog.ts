import type { Knex } from 'knex';
import { migrations } from '../../../migrations/index.js';
import { DatabaseCopyError } from './copy-error.js';
import type { Database } from './database.js';

/** What the copy asks each database's catalog: its migrations, its tables, a table's columns and key. */

export interface TableShape {
  readonly columns: readonly string[];
  readonly key: readonly string[];
}

/** Both databases are migrated to this code's latest migration, and know no other. */
export async function requireLatest(db: Database, which: string): Promise<void> {
  // Read from Knex's table itself: its migrator refuses to list a database with migrations it does not know.
  const applied = (await db
    .knex('knex_migrations')
    .orderBy('id')
    .pluck('name')
    .catch(() => [])) as string[];
  const known = migrations.map((m) => m.name);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    throw new DatabaseCopyError(`${which} has migrations this version does not know (${unknown.join(', ')}): copy it with the version that made them`);
  const pending = known.filter((name) => !applied.includes(name));
  if (pending.length > 0)
    throw new DatabaseCopyError(`${which} is not migrated to this version (${pending.join(', ')} not applied): run proof-registry migrate on it first`);
}

/** The source holds no table the copy (of `copied`) would leave behind. */
export async function requireTables(source: Database, copied: readonly string[]): Promise<void> {
  const names =
    source.dialect === 'sqlite'
      ? (
          (await source.knex.raw(
            "select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\' and name not like 'proofs\\_fts%' escape '\\'",
          )) as Array<{ name: string }>
        ).map((r) => r.name)
      : (
          (await source.knex.raw('select tablename as name from pg_catalog.pg_tables where schemaname = current_schema()')) as { rows: Array<{ name: string }> }
        ).rows.map((r) => r.name);
  const left = names.filter((name) => !name.startsWith('knex_') && !copied.includes(name));
  if (left.length > 0) throw new DatabaseCopyError(`the source has tables this version does not copy (${left.join(', ')})`);
}

export async function hasRows(knex: Knex, table: string): Promise<boolean> {
  return (await knex(table).select(knex.raw('1 as one')).limit(1)).length > 0;
}

/** A table's columns (sorted by name, so that both databases list them alike) and its primary key in key order. */
export async function shapeOf(knex: Knex, dialect: Database['dialect'], table: string): Promise<TableShape> {
  if (dialect === 'sqlite') {
    const info = (await knex.raw('select name, pk from pragma_table_info(?)', [table])) as Array<{ name: string; pk: number }>;
    const key = info
      .filter((c) => c.pk > 0)
      .sort((a, b) => a.pk - b.pk)
      .map((c) => c.name);
    return { columns: info.map((c) => c.name).sort(), key };
  }
  const columns = (
    (await knex.raw('select column_name as name from information_schema.columns where table_schema = current_schema() and table_name = ?', [table])) as {
      rows: Array<{ name: string }>;
    }
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
