import test from 'ava';
import type { Database } from '../../../src/adapters/sql/database.js';
import type { PendingRow } from '../../../src/adapters/sql/proof-batch-writer.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import { SqliteRowWriter, type SqliteRowWriterOptions } from '../../../src/adapters/sql/sqlite-row-writer.js';
import { withSqliteFile } from '../../support/databases.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';

// The writer thread's SQLite writer, on its own: what the ProofStore contract cannot see
// through the thread (rollback of a failed batch, the WAL kept in check).

const pending = (i: number, robotId = `robot-${i % 3}`): PendingRow => {
  const record = aProofRecord(WALLET_A, { taskId: `task-${i}`, robotId, topics: ['nav/pose', 'safety/state', 'nav/pose'] }, 1_800_000_000_000 + i);
  return { row: toRow(record), topics: [...new Set(record.topics)] };
};

async function count(db: Database, table: string): Promise<number> {
  const [row] = await db.knex(table).count({ n: '*' });
  return Number(row?.n);
}

/** Frames in the WAL right now, as SQLite reports them (a PASSIVE checkpoint moves nothing it cannot). */
async function walFrames(db: Database): Promise<number> {
  const rows = (await db.knex.raw('PRAGMA wal_checkpoint(PASSIVE)')) as Array<{ log: number }>;
  return rows[0]!.log;
}

async function writeBatches(file: string, options: SqliteRowWriterOptions, batches: number): Promise<SqliteRowWriter> {
  const writer = await SqliteRowWriter.open(file, options);
  for (let b = 0; b < batches; b++) await writer.write(Array.from({ length: 4 }, (_, k) => pending(b * 4 + k)));
  return writer;
}

test('a batch is stored with its topics and device counts; a repeat answers with the stored copy', async (t) => {
  await withSqliteFile(async (db, file) => {
    const writer = await SqliteRowWriter.open(file);
    const [a, b] = [pending(1, 'arm-1'), pending(2, 'arm-1')];
    t.deepEqual(await writer.write([a, b, a]), [{ stored: true }, { stored: true }, { stored: false, existing: a.row }]);
    t.deepEqual(await writer.write([b]), [{ stored: false, existing: b.row }]);
    await writer.close();
    t.is(await count(db, 'proofs'), 2);
    t.is(await count(db, 'proof_topics'), 4);
    const device = await db.knex('devices').where({ wallet: WALLET_A, device_id: 'arm-1' }).first();
    t.is(Number(device.proof_count), 2);
  });
});

test('a batch the database refuses is rolled back whole, and the writer goes on', async (t) => {
  await withSqliteFile(async (db, file) => {
    const writer = await SqliteRowWriter.open(file);
    const broken: PendingRow = { ...pending(2), row: { ...pending(2).row, task_id: null as unknown as string } };
    await t.throwsAsync(writer.write([pending(1), broken]), { message: /NOT NULL/ });
    t.is(await count(db, 'proofs'), 0);
    t.is(await count(db, 'proof_topics'), 0);
    t.is(await count(db, 'devices'), 0);
    t.deepEqual(await writer.write([pending(1)]), [{ stored: true }]);
    await writer.close();
    t.is(await count(db, 'proofs'), 1);
  });
});

test('the WAL is checkpointed in the background and started over once it passes its limit', async (t) => {
  await withSqliteFile(async (db, file) => {
    const writer = await writeBatches(file, { checkpoint: { everyCommits: 1, walFramesLimit: 10 } }, 30);
    t.true(writer.walRestarts > 0);
    await writer.close();
    const kept = await walFrames(db);
    t.is(await count(db, 'proofs'), 120);
    t.deepEqual(await db.knex.raw('PRAGMA integrity_check'), [{ integrity_check: 'ok' }]);

    // The same writes with no checkpoint: every frame stays in the WAL.
    await db.knex('proof_topics').delete();
    await db.knex('proofs').delete();
    await db.knex.raw('PRAGMA wal_checkpoint(TRUNCATE)');
    const unchecked = await writeBatches(file, { checkpoint: { everyCommits: Number.MAX_SAFE_INTEGER } }, 30);
    t.is(unchecked.walRestarts, 0);
    await unchecked.close();
    const grown = await walFrames(db);
    t.true(kept * 4 < grown, `WAL frames with checkpoints ${kept}, without ${grown}`);
  });
});
