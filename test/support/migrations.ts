import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutionContext } from 'ava';
import { openDatabase, type Database } from '../../src/adapters/sql/index.js';
import { migrations } from '../../migrations/index.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from './databases.js';

/** For tests of one migration over data laid out by the ones before it. */

/** The migrations before the one named `name`. */
export const migrationsBefore = (name: string) =>
  migrations.slice(
    0,
    migrations.findIndex((m) => m.name === name),
  );

/** Applies just `listed` (in order), as a database of an earlier version had them. */
export async function migrateTo(db: Database, listed: typeof migrations): Promise<void> {
  await db.knex.migrate.latest({
    migrationSource: {
      getMigrations: async () => [...listed],
      getMigrationName: (m: (typeof migrations)[number]) => m.name,
      getMigration: async (m: (typeof migrations)[number]) => m.migration,
    },
    ...(db.schema !== undefined && { schemaName: db.schema }),
  });
}

/** An empty SQLite file of the test's own, removed after it. */
export async function emptySqliteDatabase(t: ExecutionContext): Promise<Database> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-'));
  const db = await openDatabase(`sqlite:${path.join(dir, 'registry.sqlite')}`);
  t.teardown(async () => {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  });
  return db;
}

/** An empty PostgreSQL schema of the test's own, dropped after it. */
export async function emptyPostgresDatabase(t: ExecutionContext, label: string): Promise<Database> {
  const db = await openDatabase(TEST_POSTGRES_URL, { schema: uniqueSchemaName(label), poolSize: 2 });
  t.teardown(async () => {
    await db.knex.raw('drop schema if exists ?? cascade', [db.schema!]);
    await db.close();
  });
  return db;
}
