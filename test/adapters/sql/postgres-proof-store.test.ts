import test from 'ava';
import { KnexProofStore, migrateLatest, openDatabase } from '../../../src/adapters/sql/index.js';
import { migrations } from '../../../migrations/index.js';
import { proofStoreAddContract } from '../../contracts/proof-store-add.contract.js';
import { proofStoreSearchContract } from '../../contracts/proof-store-search.contract.js';
import { proofTextSearchContract } from '../../contracts/proof-text-search.contract.js';
import { postgresFixture, TEST_POSTGRES_URL, uniqueSchemaName } from '../../support/databases.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';
import { knexProofStoreChecks } from './knex-proof-store.checks.js';

// One schema for this file, migrated once and emptied before each test: the tests share it,
// so they run serially. No skip when PostgreSQL is down: the `before` hook fails instead.
const pg = postgresFixture(test, 'proofs');
for (const contract of [proofStoreAddContract, proofStoreSearchContract]) {
  contract('postgres', async () => new KnexProofStore(await pg.fresh()), test.serial);
  contract('postgres, indexes past the first proofs', async () => new KnexProofStore(await pg.fresh(), { textProbe: 2, textHitsPerProbe: 4 }), test.serial);
}
proofTextSearchContract('postgres', async () => new KnexProofStore(await pg.fresh()), test.serial);
proofTextSearchContract(
  'postgres, index past the first proofs',
  async () => new KnexProofStore(await pg.fresh(), { textProbe: 2, textHitsPerProbe: 4 }),
  test.serial,
);
proofTextSearchContract(
  'postgres, slices of the list only',
  async () => new KnexProofStore(await pg.fresh(), { textProbe: 2, textHitsPerProbe: 0 }),
  test.serial,
);
proofTextSearchContract(
  'postgres, every needle taken for common',
  async () => new KnexProofStore(await pg.fresh(), { textProbe: 2, textHitsPerProbe: 4, commonPerProbe: 0 }),
  test.serial,
);
knexProofStoreChecks('postgres', () => pg.fresh(), test.serial);

test.serial('postgres: bigint columns come back as numbers', async (t) => {
  const db = await pg.fresh();
  const record = aProofRecord(WALLET_A, {}, 1_790_000_000_123);
  await new KnexProofStore(db).add(record);
  const got = await new KnexProofStore(db).get(WALLET_A, record.proofId);
  t.is(got?.receivedAtMs, 1_790_000_000_123);
  t.is(typeof got?.createdAtMs, 'number');
});

test.serial('postgres: tables live in the requested schema, not in public', async (t) => {
  const db = await pg.fresh();
  const rows: { rows: Array<{ schemaname: string }> } = await db.knex.raw(
    "select schemaname from pg_catalog.pg_tables where tablename = 'proofs' and schemaname = current_schema()",
  );
  t.deepEqual(rows.rows, [{ schemaname: db.schema }]);
});

test('postgres: a new schema migrates once, then not again, also when several processes race', async (t) => {
  const schema = uniqueSchemaName('migrate');
  // Separate pools stand for separate processes starting at the same time on an empty schema.
  const dbs = await Promise.all([1, 2, 3].map(() => openDatabase(TEST_POSTGRES_URL, { schema, poolSize: 2 })));
  t.teardown(async () => {
    await dbs[0]!.knex.raw('drop schema if exists ?? cascade', [schema]);
    await Promise.all(dbs.map((db) => db.close()));
  });
  const runs = await Promise.all(dbs.map((db) => migrateLatest(db)));
  t.deepEqual(
    runs.flat(),
    migrations.map((m) => m.name),
  );
  t.deepEqual(await migrateLatest(dbs[0]!), []);
  t.is((await dbs[1]!.knex('knex_migrations_lock').select()).length, 1);
});

test('postgres: an unreachable server is an error, not a hang', async (t) => {
  await t.throwsAsync(openDatabase('postgres://postgres@127.0.0.1:1/none', { schema: 'x' }));
});
