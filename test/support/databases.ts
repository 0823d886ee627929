import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ExecutionContext, TestFn } from 'ava';
import { migrateLatest, openDatabase, type Database } from '../../src/adapters/sql/index.js';

/**
 * Real databases for adapter and contract tests. SQLite: a fresh migrated file per test (cheap,
 * and the production path: WAL, per-connection pragmas). PostgreSQL: one schema per test file,
 * migrated once and emptied between tests, so the tests using it must run with `test.serial`.
 *
 *   const pg = postgresFixture(test, 'devices');
 *   deviceStoreProofsContract('postgres', async () => new KnexDeviceStore(await pg.fresh()), test.serial);
 */

/** How a contract declares its tests: `test`, or `test.serial` when they share a database. */
export type DeclareTest = (title: string, implementation: (t: ExecutionContext) => Promise<void>) => void;

/**
 * The PostgreSQL server of the run. `npm test` and `npm run test:unit` always set it: to the
 * server named by TEST_POSTGRES_URL, or to one they start for the run (run-tests.ts).
 */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

export interface DatabaseFixture {
  /** A migrated database with no rows in it. */
  fresh(): Promise<Database>;
}

/** Fresh SQLite files in one temporary directory, all closed and removed after the file's tests. */
export function sqliteFixture(test: TestFn): DatabaseFixture {
  const opened: Database[] = [];
  let dir: Promise<string> | undefined;
  let count = 0;
  test.after.always('close SQLite databases', async () => {
    await Promise.all(opened.map((db) => db.close()));
    if (dir) await rm(await dir, { recursive: true, force: true });
  });
  return {
    async fresh() {
      dir ??= mkdtemp(path.join(tmpdir(), 'proof-registry-'));
      const db = await openDatabase(`sqlite:${path.join(await dir, `db-${++count}.sqlite`)}`);
      opened.push(db);
      await migrateLatest(db);
      return db;
    },
  };
}

/**
 * One PostgreSQL schema for the test file: created and migrated before the tests, dropped after.
 * `fresh()` empties every table but Knex's own and `wallets`, with DELETE in foreign-key order (about 1 ms,
 * where TRUNCATE takes 50 ms or more per call). There is no skip: when PostgreSQL cannot be
 * reached the hook fails, and with it every test that needs it (a silent skip would hide a
 * broken adapter).
 */
export function postgresFixture(test: TestFn, label: string): DatabaseFixture {
  let db: Database | undefined;
  let empty = '';
  test.before(`PostgreSQL schema for ${label}`, async () => {
    db = await openPostgresSchema(label);
    empty = (await tablesChildrenFirst(db)).map((table) => `delete from "${table.replace(/"/g, '""')}";`).join('\n');
  });
  test.after.always(`drop PostgreSQL schema for ${label}`, async () => {
    if (db) await dropSchema(db);
  });
  return {
    async fresh() {
      if (!db) throw new Error('PostgreSQL fixture is not ready: did its test.before hook fail?');
      if (empty !== '') await db.knex.raw(empty);
      return db;
    },
  };
}

/** Runs `fn` on a migrated database in a schema of its own, dropped afterwards. */
export async function withPostgresSchema<T>(label: string, fn: (db: Database) => Promise<T>): Promise<T> {
  const db = await openPostgresSchema(label);
  try {
    return await fn(db);
  } finally {
    await dropSchema(db);
  }
}

/** Runs `fn` on a migrated SQLite file in a temporary directory, removed afterwards. */
export async function withSqliteFile<T>(fn: (db: Database, file: string) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-'));
  const file = path.join(dir, 'registry.sqlite');
  const db = await openDatabase(`sqlite:${file}`);
  try {
    await migrateLatest(db);
    return await fn(db, file);
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * A PostgreSQL schema of the test's own, for code that opens DATABASE_URL itself (a whole
 * registry, a CLI command): `url` selects the schema through the connection's search_path,
 * `admin` is a connection to it, and the schema is dropped when the test ends. No skip when
 * PostgreSQL is down: the test fails.
 */
export async function postgresSchemaUrl(t: ExecutionContext, label: string): Promise<{ url: string; admin: Database }> {
  const schema = uniqueSchemaName(label);
  const admin = await openDatabase(TEST_POSTGRES_URL, { schema, poolSize: 1 });
  t.teardown(async () => {
    await admin.knex.raw('drop schema if exists ?? cascade', [schema]);
    await admin.close();
  });
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return { url: url.toString(), admin };
}

/** A unique schema name, so parallel test files and runs never share tables. */
export function uniqueSchemaName(label: string): string {
  const slug = label
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .slice(0, 30);
  return `t_${slug}_${process.pid}_${randomBytes(4).toString('hex')}`;
}

async function openPostgresSchema(label: string): Promise<Database> {
  const db = await openDatabase(TEST_POSTGRES_URL, { schema: uniqueSchemaName(label), poolSize: 5 }).catch((err: unknown) => {
    const where = TEST_POSTGRES_URL.replace(/\/\/[^@/]*@/, '//');
    throw new Error(`PostgreSQL at ${where} is unreachable (set TEST_POSTGRES_URL, or run the tests with npm test, which starts a server): ${String(err)}`);
  });
  try {
    await migrateLatest(db);
    return db;
  } catch (err) {
    await dropSchema(db);
    throw err;
  }
}

/** The schema's tables (not Knex's), each listed before any table its foreign keys point to. */
async function tablesChildrenFirst(db: Database): Promise<string[]> {
  const tables: Array<{ tablename: string }> = await db
    .knex('pg_catalog.pg_tables')
    .select('tablename')
    .where('schemaname', db.schema)
    // Wallet keys stay, as in production, where no wallet row is ever deleted: a writer
    // remembers the keys it has seen (see wallet-keys.ts).
    .whereNotIn('tablename', ['knex_migrations', 'knex_migrations_lock', 'wallets']);
  const edges: { rows: Array<{ child: string; parent: string }> } = await db.knex.raw(
    `select c.relname as child, p.relname as parent
       from pg_catalog.pg_constraint k
       join pg_catalog.pg_class c on c.oid = k.conrelid
       join pg_catalog.pg_class p on p.oid = k.confrelid
       join pg_catalog.pg_namespace n on n.oid = k.connamespace
      where k.contype = 'f' and n.nspname = ? and c.oid <> p.oid`,
    [db.schema ?? 'public'],
  );
  const left = new Set(tables.map((t) => t.tablename));
  const ordered: string[] = [];
  while (left.size > 0) {
    // A table may go once no remaining table still references it.
    const ready = [...left].filter((table) => !edges.rows.some((e) => e.parent === table && left.has(e.child)));
    if (ready.length === 0) throw new Error(`foreign-key cycle among ${[...left].join(', ')}; empty them by hand`);
    for (const table of ready.sort()) {
      ordered.push(table);
      left.delete(table);
    }
  }
  return ordered;
}

async function dropSchema(db: Database): Promise<void> {
  try {
    if (db.schema) await db.knex.raw('drop schema if exists ?? cascade', [db.schema]);
  } finally {
    await db.close();
  }
}
