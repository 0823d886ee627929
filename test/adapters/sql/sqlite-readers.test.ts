import test from 'ava';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KnexProofStore, migrateLatest, openDatabase } from '../../../src/adapters/sql/index.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';

test('an SQLite file gets read-only reader connections that see every acknowledged write', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'sqlite-readers-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const db = await openDatabase(`sqlite:${join(dir, 'r.sqlite')}`);
  t.teardown(() => db.close());
  await migrateLatest(db);
  t.not(db.reader, db.knex);
  await t.throwsAsync(db.reader('proofs').delete(), { message: /readonly|read-only/i });

  const store = new KnexProofStore(db);
  const records = Array.from({ length: 30 }, (_, i) => aProofRecord(WALLET_A, { taskId: `r${i}` }));
  // Reads interleaved with writes: each read after an acknowledged add must find it.
  await Promise.all(
    records.map(async (r) => {
      await store.add(r);
      t.truthy(await store.get(WALLET_A, r.proofId));
    }),
  );
  t.is((await store.search(WALLET_A, { order: 'asc', limit: 100 })).items.length, 30);
});

test('sqlite::memory: reads and writes share its one connection', async (t) => {
  const db = await openDatabase('sqlite::memory:');
  t.teardown(() => db.close());
  t.is(db.reader, db.knex);
});
