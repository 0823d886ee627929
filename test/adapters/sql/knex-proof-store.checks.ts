import { KnexProofStore, appliedMigrations, migrateLatest, type Database } from '../../../src/adapters/sql/index.js';
import type { GroupCommitOptions } from '../../../src/adapters/sql/group-commit.js';
import type { ProofWriter } from '../../../src/adapters/sql/proof-writer.js';
import type { ProofRecord } from '../../../src/domain/proof/proof-record.js';
import { migrations } from '../../../migrations/index.js';
import type { DeclareTest } from '../../support/databases.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';

/**
 * What the SQL store must do beyond the ProofStore contract, on every dialect: keep the
 * envelope byte for byte, escape LIKE, take concurrent writers, and migrate idempotently.
 * `fresh` returns a migrated, empty database; `writerFor`, where the proofs are written
 * (a writer thread), by default on the database's own connection.
 */
export function knexProofStoreChecks(
  name: string,
  fresh: () => Promise<Database>,
  testFn: DeclareTest,
  writerFor?: (db: Database) => Promise<ProofWriter>,
): void {
  const storeOf = async (db: Database, options: Partial<GroupCommitOptions> = {}) =>
    new KnexProofStore(db, writerFor ? { ...options, writer: await writerFor(db) } : options);

  testFn(`${name}: the stored envelope is the JSON as received, byte for byte`, async (t) => {
    const db = await fresh();
    const store = await storeOf(db);
    const base = aProofRecord(WALLET_A, { meta: { note: 'Zürich ✓ 🤖' } });
    // Members the signature does not cover are kept as sent: order, number spelling, unicode.
    const record: ProofRecord = {
      ...base,
      envelope: {
        ...base.envelope,
        zeta: { b: 1, a: [1e-7, 1e21, 0.1 + 0.2, -12.5, 5e-324, 1.7976931348623157e308] },
        alpha: 'quote " backslash \\ nul \u0000 line-sep \u2028 emoji 🤖 lone \ud800',
        ['ключ']: null,
      },
    };
    const json = JSON.stringify(record.envelope);
    await store.add(record);
    const [raw] = await db.knex('proofs').select('envelope').where({ wallet: WALLET_A, proof_id: record.proofId });
    t.is((raw as { envelope: string }).envelope, json);
    const got = await store.get(WALLET_A, record.proofId);
    t.deepEqual(got, { ...record, logIndex: 0 });
    t.is(JSON.stringify(got?.envelope), json);
  });

  testFn(`${name}: text search matches %, _ and \\ literally`, async (t) => {
    const store = await storeOf(await fresh());
    const odd = aProofRecord(WALLET_A, { taskId: 'a\\b%c_d' });
    const plain = aProofRecord(WALLET_A, { taskId: 'abxcyd' });
    await store.add(odd);
    await store.add(plain);
    const ids = async (text: string) => (await store.search(WALLET_A, { order: 'asc', limit: 10, text })).items.map((i) => i.taskId);
    t.deepEqual(await ids('\\'), ['a\\b%c_d']);
    t.deepEqual(await ids('A\\B%C_D'), ['a\\b%c_d']);
    t.deepEqual(await ids('b%c'), ['a\\b%c_d']);
    t.deepEqual(await ids('x'), ['abxcyd']);
    t.deepEqual(await ids('b_c'), []);
  });

  testFn(`${name}: many concurrent adds of different proofs are all stored, topics included`, async (t) => {
    const store = await storeOf(await fresh());
    const records = Array.from({ length: 60 }, (_, i) => aProofRecord(WALLET_A, { taskId: `load-${i}`, topics: i % 2 ? ['odd'] : ['even', 'x'] }));
    const results = await Promise.all(records.map((r) => store.add(r)));
    t.true(results.every((r) => r.stored));
    // Adds that shared a transaction still each get their own record back.
    t.deepEqual(
      results.map((r) => r.record),
      records.map((r, i) => ({ ...r, logIndex: results[i]!.record.logIndex })),
    );
    // Each its own leaf, none skipped.
    t.deepEqual(
      results.map((r) => r.record.logIndex).sort((a, b) => a! - b!),
      records.map((_, i) => i),
    );
    const page = await store.search(WALLET_A, { order: 'asc', limit: 200 });
    t.is(page.items.length, 60);
    t.is((await store.search(WALLET_A, { order: 'asc', limit: 200, topic: 'odd' })).items.length, 30);
  });

  testFn(`${name}: concurrent adds mixing new, stored and repeated proofs keep one first copy`, async (t) => {
    const db = await fresh();
    // Several writers (on PostgreSQL: transactions racing each other) and a single writer
    // (one batch, where arrival order decides and the outcome is exact).
    for (const [i, options] of [{ writers: 4 }, { writers: 1 }].entries()) {
      const store = await storeOf(db, options);
      const old = aProofRecord(WALLET_A, { taskId: `old-${i}` }, 1);
      const young = aProofRecord(WALLET_A, { taskId: `new-${i}` }, 2);
      await store.add(old);
      const [o1, y1, y2, o2] = await Promise.all([
        store.add({ ...old, receivedAtMs: 10 }),
        store.add(young),
        store.add({ ...young, receivedAtMs: 20 }),
        store.add({ ...old, receivedAtMs: 30 }),
      ]);
      const oldAsStored = { ...old, logIndex: 2 * i };
      t.deepEqual(
        [o1, o2],
        [
          { stored: false, record: oldAsStored },
          { stored: false, record: oldAsStored },
        ],
      );
      const kept = await store.get(WALLET_A, young.proofId);
      t.is([y1, y2].filter((r) => r?.stored).length, 1);
      t.deepEqual([y1?.record, y2?.record], [kept, kept]);
      if (options.writers === 1) t.is(kept?.receivedAtMs, 2);
    }
  });

  testFn(`${name}: a record the database rejects fails alone, not the adds around it`, async (t) => {
    // One writer, so the second and third adds share a transaction that the bad record breaks.
    const store = await storeOf(await fresh(), { writers: 1 });
    const good = [aProofRecord(WALLET_A, { taskId: 'g1' }), aProofRecord(WALLET_A, { taskId: 'g2' })];
    // task_id is NOT NULL: the insert of this one fails inside whatever batch it lands in.
    const bad = { ...aProofRecord(WALLET_A, { taskId: 'bad' }), taskId: null as unknown as string };
    const [first, broken, second] = await Promise.allSettled([store.add(good[0]!), store.add(bad), store.add(good[1]!)]);
    t.is(first?.status, 'fulfilled');
    t.is(broken?.status, 'rejected');
    t.is(second?.status, 'fulfilled');
    t.is((await store.search(WALLET_A, { order: 'asc', limit: 10 })).items.length, 2);
    t.is(await store.get(WALLET_A, bad.proofId), null);
  });

  testFn(`${name}: migrating an up-to-date database again is a no-op`, async (t) => {
    const db = await fresh();
    const store = await storeOf(db);
    const record = aProofRecord(WALLET_A);
    await store.add(record);
    t.deepEqual(
      await appliedMigrations(db),
      migrations.map((m) => m.name),
    );
    t.deepEqual(await migrateLatest(db), []);
    t.deepEqual(await migrateLatest(db), []);
    t.deepEqual(await store.get(WALLET_A, record.proofId), { ...record, logIndex: 0 });
  });
}
