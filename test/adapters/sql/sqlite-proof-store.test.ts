import { access } from 'node:fs/promises';
import path from 'node:path';
import test from 'ava';
import { KnexProofStore, migrateLatest, openDatabase, type Database } from '../../../src/adapters/sql/index.js';
import { configureSqliteConnection } from '../../../src/adapters/sql/database.js';
import { migrations } from '../../../migrations/index.js';
import { proofStoreAddContract } from '../../contracts/proof-store-add.contract.js';
import { proofStoreSearchContract } from '../../contracts/proof-store-search.contract.js';
import { proofTextSearchContract } from '../../contracts/proof-text-search.contract.js';
import { sqliteFixture, withSqliteFile } from '../../support/databases.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';
import { knexProofStoreChecks } from './knex-proof-store.checks.js';

// A fresh file per test: the production path (WAL, per-connection pragmas), and cheap.
const sqlite = sqliteFixture(test);
const pastFirstProofs = async () => new KnexProofStore(await sqlite.fresh(), { textProbe: 2, textHitsPerProbe: 4 });
for (const contract of [proofStoreAddContract, proofStoreSearchContract]) {
  contract('sqlite', async () => new KnexProofStore(await sqlite.fresh()));
  contract('sqlite, indexes past the first proofs', pastFirstProofs);
}
proofTextSearchContract('sqlite', async () => new KnexProofStore(await sqlite.fresh()));
proofTextSearchContract('sqlite, index past the first proofs', async () => new KnexProofStore(await sqlite.fresh(), { textProbe: 2, textHitsPerProbe: 4 }));
proofTextSearchContract('sqlite, slices of the list only', async () => new KnexProofStore(await sqlite.fresh(), { textProbe: 2, textHitsPerProbe: 0 }));
// Slices of 2, 8, 32… read in chunks of 3.
proofTextSearchContract(
  'sqlite, slices read in chunks',
  async () => new KnexProofStore(await sqlite.fresh(), { textProbe: 2, textHitsPerProbe: 0, sqliteChunk: 3 }),
);
knexProofStoreChecks('sqlite', () => sqlite.fresh(), test);

const pragma = async (db: Database, name: string): Promise<unknown> => {
  const rows: unknown = await db.knex.raw(`pragma ${name}`);
  return Array.isArray(rows) && rows[0] && typeof rows[0] === 'object' ? Object.values(rows[0])[0] : undefined;
};

test('sqlite: a file database runs in WAL mode with the connection pragmas set', async (t) => {
  await withSqliteFile(async (db, file) => {
    t.is(await pragma(db, 'journal_mode'), 'wal');
    t.is(await pragma(db, 'synchronous'), 2); // FULL: a commit is on disk before it returns
    t.is(await pragma(db, 'foreign_keys'), 1);
    t.is(await pragma(db, 'busy_timeout'), 5000);
    await new KnexProofStore(db).add(aProofRecord(WALLET_A));
    await t.notThrowsAsync(access(`${file}-wal`));
  });
});

test('sqlite: SQLITE_SYNCHRONOUS=normal syncs only at checkpoints, on the connections that write', async (t) => {
  await withSqliteFile(async (_db, file) => {
    const relaxed = await openDatabase(`sqlite:${file}`, { synchronous: 'normal' });
    t.teardown(() => relaxed.close());
    t.is(await pragma(relaxed, 'synchronous'), 1);
    t.is(relaxed.synchronous, 'normal');
  });
});

test('sqlite: the parent directory of the file is created, and data survives a reopen', async (t) => {
  await withSqliteFile(async (_db, file) => {
    const nested = path.join(path.dirname(file), 'a', 'b', 'registry.sqlite');
    const record = aProofRecord(WALLET_A);
    const first = await openDatabase(`sqlite:${nested}`);
    await migrateLatest(first);
    await new KnexProofStore(first).add(record);
    await first.close();
    const again = await openDatabase(`sqlite:${nested}`);
    t.deepEqual(await migrateLatest(again), []);
    t.deepEqual(await new KnexProofStore(again).get(WALLET_A, record.proofId), { ...record, logIndex: 0 });
    await again.close();
  });
});

test('sqlite: an in-memory database migrates once, then not again', async (t) => {
  const db = await openDatabase('sqlite::memory:');
  t.teardown(() => db.close());
  t.is(db.dialect, 'sqlite');
  t.deepEqual(
    await migrateLatest(db),
    migrations.map((m) => m.name),
  );
  t.deepEqual(await migrateLatest(db), []);
  const record = aProofRecord(WALLET_A);
  await new KnexProofStore(db).add(record);
  t.deepEqual(await new KnexProofStore(db).get(WALLET_A, record.proofId), { ...record, logIndex: 0 });
});

test('sqlite: several processes migrating one new file apply each migration once', async (t) => {
  await withSqliteFile(async (_db, file) => {
    // Separate connections stand for separate processes starting at once on a new file. The
    // race is over in milliseconds and lost only now and then, so it is run several times.
    for (let round = 0; round < 12; round++) {
      const fresh = path.join(path.dirname(file), `race-${round}.sqlite`);
      const dbs = await Promise.all([1, 2, 3].map(() => openDatabase(`sqlite:${fresh}`)));
      try {
        const runs = await Promise.all(dbs.map((db) => migrateLatest(db)));
        t.deepEqual(
          runs.flat(),
          migrations.map((m) => m.name),
          `round ${round}`,
        );
        t.is((await dbs[1]!.knex('knex_migrations_lock').select()).length, 1);
      } finally {
        await Promise.all(dbs.map((db) => db.close()));
      }
    }
  });
});

/** A driver connection that answers each statement from a script, recording what it ran. */
function scriptedConnection(answers: Record<string, Array<string | null>>) {
  const ran: string[] = [];
  const connection = {
    ran,
    exec(sql: string, callback: (err: Error | null) => void) {
      ran.push(sql);
      const code = answers[sql]?.shift() ?? null;
      setImmediate(() => callback(code === null ? null : Object.assign(new Error(`${code}: scripted`), { code })));
    },
  };
  return connection;
}

test('sqlite: a connection sets its busy timeout first and retries the switch to WAL while the file is busy', async (t) => {
  const conn = scriptedConnection({ 'PRAGMA journal_mode = WAL': ['SQLITE_BUSY', 'SQLITE_BUSY', null] });
  const pauses: number[] = [];
  await configureSqliteConnection(conn, 5000, 'full', async (ms) => void pauses.push(ms));
  t.deepEqual(conn.ran, [
    'PRAGMA busy_timeout = 5000',
    'PRAGMA journal_mode = WAL',
    'PRAGMA journal_mode = WAL',
    'PRAGMA journal_mode = WAL',
    'PRAGMA synchronous = FULL;\nPRAGMA foreign_keys = ON',
  ]);
  t.deepEqual(pauses, [2, 4]);
  const relaxed = scriptedConnection({});
  await configureSqliteConnection(relaxed, 5000, 'normal');
  t.is(relaxed.ran.at(-1), 'PRAGMA synchronous = NORMAL;\nPRAGMA foreign_keys = ON');
});

test('sqlite: the switch to WAL gives up after the busy timeout, and other errors fail at once', async (t) => {
  const busy = scriptedConnection({ 'PRAGMA journal_mode = WAL': Array<string>(1000).fill('SQLITE_BUSY') });
  const waited: number[] = [];
  const sleep = (ms: number) => new Promise<void>((resolve) => (waited.push(ms), setTimeout(resolve, ms)));
  const error = await t.throwsAsync(configureSqliteConnection(busy, 60, 'full', sleep));
  t.is((error as Error & { code?: string }).code, 'SQLITE_BUSY');
  // Each pause really passes, and none starts that would end past the timeout: 60 ms in all, at most.
  t.true(waited.reduce((a, b) => a + b, 0) <= 60, `paused ${waited.join(' + ')} ms`);
  t.false(busy.ran.some((sql) => sql.startsWith('PRAGMA synchronous')));

  const broken = scriptedConnection({ 'PRAGMA journal_mode = WAL': ['SQLITE_IOERR'] });
  const pauses: number[] = [];
  const ioError = await t.throwsAsync(configureSqliteConnection(broken, 5000, 'full', async (ms) => void pauses.push(ms)));
  t.is((ioError as Error & { code?: string }).code, 'SQLITE_IOERR');
  t.deepEqual(pauses, []);
});
