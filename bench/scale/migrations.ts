import type { Knex } from 'knex';
import type { Database } from '../../src/adapters/sql/index.js';
import { migrations } from '../../migrations/index.js';

// The migrations of the scale bench: those a database is loaded at, and those timed over its rows.
/** Knex's migrator serving `source` (a part of the list), in the database's schema. */
export function migratorConfig(db: Database, source: readonly (typeof migrations)[number][]): Knex.MigratorConfig {
  return {
    migrationSource: {
      getMigrations: async () => [...source],
      getMigrationName: (m: (typeof migrations)[number]) => m.name,
      getMigration: async (m: (typeof migrations)[number]) => m.migration,
    },
    ...(db.schema !== undefined && { schemaName: db.schema }),
  };
}

/**
 * Applies the migrations of `listed` not yet in `applied`, one at a time in list order, timing
 * each. Each step serves Knex the migrations applied so far plus the next, so a database may
 * have them in another order than the list's (the loaded ones skip 010_search at first).
 */
export async function migrateTimed(db: Database, listed: typeof migrations, applied: ReadonlySet<string> = new Set()): Promise<Record<string, number>> {
  const times: Record<string, number> = {};
  const done = new Set(applied);
  for (const next of listed.filter((m) => !done.has(m.name))) {
    done.add(next.name);
    const source = migrations.filter((m) => done.has(m.name));
    const start = performance.now();
    await db.knex.migrate.latest(migratorConfig(db, source));
    times[next.name] = Math.round(performance.now() - start);
  }
  return times;
}

/**
 * The migrations a database is loaded at, and those timed over the loaded rows. The load
 * starts from a fully migrated schema, as a database grows in service: every index grows by
 * inserts (on PostgreSQL a grown B-tree is about half full, a freshly built one 90%; see
 * docs/storage.md, "Size on disk"). Then the migrations of SCALE_REMIGRATE (by default the
 * newest) are rolled back, newest first, and applied again over the loaded rows, each way
 * timed. SCALE_DEFER=010_search,… applies the migrations it names after the load instead,
 * timed (the text index built in one go over the rows, which also loads faster); only a
 * migration that no later one builds on can wait, since one applied out of order over a
 * schema its successors changed fails (014_narrow_indexes after 015_topic_times does).
 */
export const DEFER = (process.env.SCALE_DEFER ?? '').split(',').filter(Boolean);
export const beforeLoad = migrations.filter((m) => !DEFER.includes(m.name));
export const REMIGRATE = (process.env.SCALE_REMIGRATE ?? (process.env.SCALE_EXISTING === '1' ? '' : migrations[migrations.length - 1]!.name))
  .split(',')
  .filter(Boolean);

/** Rolls back the named migrations, newest first, then applies them again in list order, timing each step. */
export async function remigrateTimed(db: Database, names: readonly string[]): Promise<Record<string, { down: number; up: number }>> {
  const config = migratorConfig(db, migrations);
  const listed = migrations.filter((m) => names.includes(m.name)).map((m) => m.name);
  const times: Record<string, { down: number; up: number }> = {};
  for (const name of [...listed].reverse()) {
    const start = performance.now();
    await db.knex.migrate.down({ ...config, name });
    times[name] = { down: Math.round(performance.now() - start), up: 0 };
  }
  for (const name of listed) {
    const start = performance.now();
    await db.knex.migrate.up({ ...config, name });
    times[name]!.up = Math.round(performance.now() - start);
  }
  return times;
}
