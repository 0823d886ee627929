import test from 'ava';
import { KnexGroupStore } from '../../../src/adapters/sql/knex-group-store.js';
import { KnexProofStore, type Database } from '../../../src/adapters/sql/index.js';
import { ThreadedProofWriter } from '../../../src/adapters/sql/threaded-proof-writer.js';
import { proofStoreAddContract } from '../../contracts/proof-store-add.contract.js';
import { proofStoreSearchContract } from '../../contracts/proof-store-search.contract.js';
import { postgresFixture, sqliteFixture } from '../../support/databases.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';
import { knexProofStoreChecks } from './knex-proof-store.checks.js';

// The proof write transactions on a writer thread with its own connection must behave exactly
// as on the main connection: the same contract and SQL checks, on both dialects.
const threads: ThreadedProofWriter[] = [];
test.after.always('close writer threads', () => Promise.all(threads.map((w) => w.close())));

async function threadFor(db: Database): Promise<ThreadedProofWriter> {
  const rows = await ThreadedProofWriter.forDatabase(db);
  if (!rows) throw new Error('a file or server database must get a writer thread');
  threads.push(rows);
  return rows;
}

const sqlite = sqliteFixture(test);
for (const contract of [proofStoreAddContract, proofStoreSearchContract])
  contract('sqlite, writer thread', async () => {
    const db = await sqlite.fresh();
    return new KnexProofStore(db, { writer: await threadFor(db) });
  });
knexProofStoreChecks('sqlite, writer thread', () => sqlite.fresh(), test, threadFor);

// PostgreSQL: one schema for the file, one thread for it.
const pg = postgresFixture(test, 'writer_thread');
let pgThread: Promise<ThreadedProofWriter> | undefined;
const pgRows = (db: Database) => (pgThread ??= threadFor(db));
for (const contract of [proofStoreAddContract, proofStoreSearchContract])
  contract(
    'postgres, writer thread',
    async () => {
      const db = await pg.fresh();
      return new KnexProofStore(db, { writer: await pgRows(db) });
    },
    test.serial,
  );
knexProofStoreChecks('postgres, writer thread', () => pg.fresh(), test.serial, pgRows);

test('sqlite::memory: gets no writer thread: no other connection can see it', async (t) => {
  t.is(await ThreadedProofWriter.forDatabase({ sharedUrl: null, dialect: 'sqlite' }), null);
});

test('a database the thread cannot open fails the start, with the driver’s reason; its driver warnings reach the main thread as one line each', async (t) => {
  const warnings: string[] = [];
  const error = await t.throwsAsync(
    ThreadedProofWriter.start(
      { databaseUrl: 'postgres://postgres@127.0.0.1:1/none', connections: 1, schema: 'x' },
      { onDriverWarning: (message) => warnings.push(message) },
    ),
  );
  t.regex(error?.message ?? '', /ECONNREFUSED|connect/);
  t.true(
    warnings.some((w) => w.startsWith('Acquire connection error:') && w.includes('ECONNREFUSED')),
    JSON.stringify(warnings),
  );
  t.true(warnings.every((w) => !w.includes('\n')));
});

test('a thread that dies takes only its batch down: the proofs are retried one by one on a new thread', async (t) => {
  const db = await sqlite.fresh();
  const rows = await ThreadedProofWriter.start(
    { databaseUrl: db.sharedUrl!, connections: 1 },
    {},
    new URL('../../support/crashing-proof-writer-thread.ts', import.meta.url),
  );
  threads.push(rows);
  const store = new KnexProofStore(db, { writer: rows, writers: 1 });
  const good = [aProofRecord(WALLET_A, { taskId: 'g1' }), aProofRecord(WALLET_A, { taskId: 'g2' })];
  const crash = aProofRecord(WALLET_A, { taskId: 'crash' });
  // One writer: the first add runs alone, the next three share a batch that kills the thread.
  const [first, dies, second, third] = await Promise.allSettled([
    store.add(good[0]!),
    store.add(crash),
    store.add(good[1]!),
    store.add(aProofRecord(WALLET_A, { taskId: 'g3' })),
  ]);
  t.is(first.status, 'fulfilled');
  t.is(dies.status, 'rejected');
  t.regex(dies.status === 'rejected' ? String(dies.reason) : '', /exited with code 3/);
  t.is(second.status, 'fulfilled');
  t.is(third.status, 'fulfilled');
  t.is((await store.search(WALLET_A, { order: 'asc', limit: 10 })).items.length, 3);
  t.is(await store.get(WALLET_A, crash.proofId), null);
});

test('close lets a batch in flight finish, then refuses new writes', async (t) => {
  const db = await sqlite.fresh();
  const rows = await threadFor(db);
  const store = new KnexProofStore(db, { writer: rows });
  const record = aProofRecord(WALLET_A);
  const added = store.add(record);
  const closing = rows.close();
  t.true((await added).stored);
  await closing;
  await t.throwsAsync(store.add(aProofRecord(WALLET_A, { taskId: 'late' })), { message: /closed/ });
  t.deepEqual(await new KnexProofStore(db).get(WALLET_A, record.proofId), { ...record, logIndex: 0 });
});

test('sqlite: group changes on the main connection never fail while the writer thread commits proofs', async (t) => {
  // A transaction that reads and then writes cannot upgrade on SQLite once the other
  // connection has committed in between; group changes take the write lock first instead.
  const db = await sqlite.fresh();
  const proofs = new KnexProofStore(db, { writer: await threadFor(db) });
  const groups = new KnexGroupStore(db);
  await proofs.add(aProofRecord(WALLET_A, { robotId: 'arm-1', taskId: 'seed' }));
  const created = await groups.createGroup(WALLET_A, { name: 'line', description: null, createdAtMs: 1 }, 10);
  if (created._tag !== 'Right') return t.fail('group not created');
  const groupId = created.right.groupId;
  const ingest = Promise.all(Array.from({ length: 300 }, (_, i) => proofs.add(aProofRecord(WALLET_A, { robotId: `arm-${i % 5}`, taskId: `t-${i}` }))));
  const changes = [];
  for (let i = 0; i < 40; i++) {
    const change = i % 2 === 0 ? groups.assignDevices(WALLET_A, groupId, ['arm-1']) : groups.unassignDevices(WALLET_A, groupId, ['arm-1']);
    changes.push(
      await change.then(
        (r) => r._tag,
        (err: unknown) => String(err),
      ),
    );
  }
  await ingest;
  t.deepEqual(
    changes.filter((c) => c !== 'Right'),
    [],
  );
});

test('a batch that cannot be handed to the thread fails alone, and close does not wait for it', async (t) => {
  const db = await sqlite.fresh();
  const rows = await threadFor(db);
  const record = aProofRecord(WALLET_A);
  const uncloneable = { row: { ...record, envelope: () => undefined }, topics: [] } as never;
  await t.throwsAsync(rows.write([uncloneable]), { message: /could not be sent to the writer thread/ });
  const store = new KnexProofStore(db, { writer: rows });
  t.true((await store.add(record)).stored);
  await rows.close();
});
