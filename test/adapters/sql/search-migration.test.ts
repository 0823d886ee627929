import test, { type ExecutionContext } from 'ava';
import { KnexProofStore, migrateLatest } from '../../../src/adapters/sql/index.js';
import { migrations } from '../../../migrations/index.js';
import { emptyPostgresDatabase, emptySqliteDatabase, migrateTo } from '../../support/migrations.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

/**
 * 010_search over proofs stored before it: the text index is built from them (found through
 * the index alone), the byte orders hold for them, and no row changes.
 */
for (const [dialect, open] of [
  ['sqlite', emptySqliteDatabase],
  ['postgres', (t: ExecutionContext) => emptyPostgresDatabase(t, 'search_010')],
] as const) {
  test(`${dialect}: 010_search indexes the text of the proofs already stored, and changes no row`, async (t) => {
    const db = await open(t);
    // The writers need every other migration's tables (011's counts among them).
    await migrateTo(
      db,
      migrations.filter((m) => m.name !== '010_search'),
    );
    const records = [
      aProofRecord(WALLET_A, { taskId: 'b', robotId: 'Zeta', meta: { site: 'Lyon-Nord' }, createdAt: '2026-11-20T01:00:00Z' }),
      aProofRecord(WALLET_A, { taskId: 'B', meta: { site: 'Paris' }, createdAt: '2026-11-20T02:00:00Z' }),
      aProofRecord(WALLET_A, { taskId: 'é', robotId: 'alpha', meta: { site: 'lyon' }, createdAt: '2026-11-20T03:00:00Z' }),
      aProofRecord(WALLET_B, { taskId: 'a', meta: { site: 'Lyon' }, createdAt: '2026-11-20T04:00:00Z' }),
    ];
    const writer = new KnexProofStore(db);
    for (const r of records) t.true((await writer.add(r)).stored);
    const before = await db.knex('proofs').select().orderBy('id');

    t.deepEqual(await migrateLatest(db), ['010_search']);

    t.deepEqual(await db.knex('proofs').select().orderBy('id'), before);
    // Probing no proof in order: every match comes through the index.
    const store = new KnexProofStore(db, { textProbe: 1, textHitsPerProbe: 4 });
    const text = async (needle: string) => (await store.search(WALLET_A, { order: 'asc', limit: 10, text: needle })).items.map((i) => i.taskId);
    t.deepEqual(await text('lyon'), ['b', 'é']);
    t.deepEqual(await text('PARIS'), ['B']);
    t.deepEqual(await text('nowhere'), []);
    t.is(await store.count(WALLET_A, { order: 'asc', limit: 1, text: 'lyon' }, 10), 2);
    const sorted = async (sort: 'task_id' | 'robot_id') => (await store.search(WALLET_A, { order: 'asc', sort, limit: 10 })).items.map((i) => i.taskId);
    t.deepEqual(await sorted('task_id'), ['B', 'b', 'é']);
    t.deepEqual(await sorted('robot_id'), ['B', 'b', 'é']);
    // Proofs stored after it are indexed as they arrive.
    await store.add(aProofRecord(WALLET_A, { taskId: 'later', meta: { site: 'Lyon-Sud' }, createdAt: '2026-11-20T05:00:00Z' }));
    t.deepEqual(await text('lyon'), ['b', 'é', 'later']);
  });
}
