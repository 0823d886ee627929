import test from 'ava';
import { openDatabase } from '../../../src/adapters/sql/database.js';
import { migrateLatest } from '../../../src/adapters/sql/migrate.js';
import { TEST_POSTGRES_URL } from '../../support/databases.js';

test('PostgreSQL: reads holding every read connection leave the write connections free', async (t) => {
  const schema = `read_pool_${process.pid}_${Date.now()}`;
  const db = await openDatabase(TEST_POSTGRES_URL, { schema, poolSize: 2, readerPoolSize: 2 });
  t.teardown(async () => {
    await db.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
    await db.close();
  });
  await migrateLatest(db);
  t.not(db.reader, db.knex);
  // Two long reads take both read connections (each holds its connection until it ends).
  const reads = await Promise.all([db.reader.transaction(), db.reader.transaction()]);
  for (const read of reads) await read.raw('select count(*) from proofs');
  // Writes still get connections at once, as many as their own pool has.
  await Promise.all([1, 2, 3].map((n) => db.knex('revoked_tokens').insert({ jti: `write-${n}`, expires_at_ms: n })));
  t.is(Number((await db.knex('revoked_tokens').count({ n: '*' }))[0]!.n), 3);
  // A third read waits for a read connection, not for a write one.
  let thirdDone = false;
  const third = db
    .reader('revoked_tokens')
    .count({ n: '*' })
    .then((rows) => ((thirdDone = true), rows));
  await db.knex.raw('select 1');
  t.false(thirdDone);
  await Promise.all(reads.map((read) => read.commit()));
  t.is(Number((await third)[0]!.n), 3);
});

test('PostgreSQL: every connection of both pools runs with JIT off, in its schema when given one', async (t) => {
  const schema = `jit_off_${process.pid}_${Date.now()}`;
  for (const options of [
    { schema, poolSize: 2, readerPoolSize: 2 },
    { poolSize: 2, readerPoolSize: 2 },
  ]) {
    const db = await openDatabase(TEST_POSTGRES_URL, options);
    try {
      // Two at once on each pool, so that both of its connections answer.
      const show = async (pool: typeof db.knex, setting: string) =>
        Promise.all(
          [1, 2].map(() => pool.transaction(async (trx) => ((await trx.raw(`show ${setting}`)) as { rows: Array<Record<string, string>> }).rows[0]![setting])),
        );
      for (const pool of [db.knex, db.reader]) {
        t.deepEqual(await show(pool, 'jit'), ['off', 'off']);
        if (options.schema !== undefined) t.deepEqual(await show(pool, 'search_path'), [schema, schema]);
      }
    } finally {
      if (options.schema !== undefined) await db.knex.raw('DROP SCHEMA IF EXISTS ?? CASCADE', [schema]);
      await db.close();
    }
  }
});
