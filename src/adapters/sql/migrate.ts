import type { Knex } from 'knex';
import { migrations } from '../../../migrations/index.js';
import type { Database } from './database.js';

type Listed = (typeof migrations)[number];

/**
 * Serves the explicit list in migrations/index.ts instead of reading a directory: Knex's
 * directory loader picks files by extension, which breaks between `.ts` under tsx and `.js`
 * after the build (and would also load `.d.ts` and source maps).
 */
class ListedMigrationSource implements Knex.MigrationSource<Listed> {
  async getMigrations(): Promise<Listed[]> {
    return [...migrations];
  }

  getMigrationName(listed: Listed): string {
    return listed.name;
  }

  async getMigration(listed: Listed): Promise<Knex.Migration> {
    return listed.migration;
  }
}

function config(db: Database): Knex.MigratorConfig {
  return {
    migrationSource: new ListedMigrationSource(),
    // The bookkeeping tables live next to the data, in the schema the connections use.
    ...(db.schema !== undefined && { schemaName: db.schema }),
  };
}

/**
 * Brings the schema up to date; returns the names of the migrations it applied (none when it
 * was already current). Safe when several processes start at once on the same database.
 */
export async function migrateLatest(db: Database): Promise<string[]> {
  await createBookkeeping(db);
  const [, applied] = (await db.knex.migrate.latest(config(db))) as [number, string[]];
  return applied;
}

/** Names of every migration this code knows, in the order they apply. */
export const knownMigrations = (): string[] => migrations.map((m) => m.name);

/** Names of the migrations already applied, oldest first. */
export async function appliedMigrations(db: Database): Promise<string[]> {
  const [done] = (await db.knex.migrate.list(config(db))) as [Array<{ name: string }>, unknown[]];
  return done.map((m) => m.name);
}

/**
 * Knex creates its bookkeeping tables with check-then-create, so two first starts race: one
 * fails on "table already exists", or both insert a lock row and every later run then reports
 * the migrations as locked. Creating them here idempotently (same columns as Knex's) closes
 * that window; from then on Knex's own lock row serializes concurrent migrators.
 */
async function createBookkeeping(db: Database): Promise<void> {
  const name = (table: string) => (db.schema !== undefined ? `${db.schema}.${table}` : table);
  const [migrationsTable, lockTable] = [name('knex_migrations'), name('knex_migrations_lock')];
  const serial = db.dialect === 'postgres' ? 'serial primary key' : 'integer not null primary key autoincrement';
  const timestamp = db.dialect === 'postgres' ? 'timestamptz' : 'datetime';
  const statements = async (q: Knex | Knex.Transaction) => {
    await q.raw(`create table if not exists ?? (id ${serial}, name varchar(255), batch integer, migration_time ${timestamp})`, [migrationsTable]);
    await q.raw(`create table if not exists ?? (?? ${serial}, is_locked integer)`, [lockTable, 'index']);
    await q.raw('insert into ?? (is_locked) select 0 where not exists (select 1 from ??)', [lockTable, lockTable]);
  };
  if (db.dialect === 'sqlite') {
    // Each statement is atomic and idempotent on its own; SQLite's write lock (with the busy
    // timeout) orders them between processes.
    await statements(db.knex);
    return;
  }
  // PostgreSQL's IF NOT EXISTS can still collide in the catalog, and the insert-if-empty is a
  // read-then-write: a transaction-scoped advisory lock per schema serializes the whole step.
  await db.knex.transaction(async (trx) => {
    await trx.raw(`select pg_advisory_xact_lock(hashtext('proof-registry:knex_migrations:' || current_schema()))`);
    await statements(trx);
  });
}
