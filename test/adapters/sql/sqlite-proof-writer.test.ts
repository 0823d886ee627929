import test from 'ava';
import type { Database } from '../../../src/adapters/sql/database.js';
import type { PendingRow } from '../../../src/adapters/sql/proof-writer.js';
import { announcedEvents } from '../../support/announced-events.js';
import { KnexProofWriter } from '../../support/knex-proof-writer.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import { SqliteProofWriter, type SqliteProofWriterOptions } from '../../../src/adapters/sql/sqlite-proof-writer.js';
import { withSqliteFile } from '../../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

// The SQLite proof writer, on its own: what the ProofStore contract cannot see
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

async function writeBatches(file: string, options: SqliteProofWriterOptions, batches: number): Promise<SqliteProofWriter> {
  const writer = await SqliteProofWriter.open(file, options);
  for (let b = 0; b < batches; b++) await writer.write(Array.from({ length: 4 }, (_, k) => pending(b * 4 + k)));
  return writer;
}

test('a batch is stored with its topics and device counts; a repeat answers with the stored copy', async (t) => {
  await withSqliteFile(async (db, file) => {
    const writer = await SqliteProofWriter.open(file);
    const [a, b] = [pending(1, 'arm-1'), pending(2, 'arm-1')];
    // One batch's new leaves take the next indexes in the order the proofs are inserted.
    const first = await writer.write([a, b, a]);
    const [ia, ib] = [first[0]!.logIndex!, first[1]!.logIndex!];
    t.deepEqual([ia, ib].sort(), [0, 1]);
    t.deepEqual(first, [
      { stored: true, logIndex: ia },
      { stored: true, logIndex: ib },
      { stored: false, existing: a.row, logIndex: ia },
    ]);
    t.deepEqual(await writer.write([b]), [{ stored: false, existing: b.row, logIndex: ib }]);
    await writer.close();
    t.is(await count(db, 'proofs'), 2);
    t.is(await count(db, 'proof_topics'), 4);
    const device = await db.knex('devices').where({ wallet: WALLET_A, device_id: 'arm-1' }).first();
    t.is(Number(device.proof_count), 2);
  });
});

test("a proof_id already in the log, stored again by another wallet, answers the log's first leaf; a new one the next", async (t) => {
  await withSqliteFile(async (db, file) => {
    const writer = await SqliteProofWriter.open(file);
    const [a, b] = [pending(1), pending(2)];
    t.deepEqual(await writer.write([a]), [{ stored: true, logIndex: 0 }]);
    // The insert returns each new row's leaf: the existing leaf for a's proof_id, the next one for b.
    const againByB: PendingRow = { ...a, row: { ...a.row, wallet: WALLET_B } };
    t.deepEqual(await writer.write([againByB, b, a]), [
      { stored: true, logIndex: 0 },
      { stored: true, logIndex: 1 },
      { stored: false, existing: a.row, logIndex: 0 },
    ]);
    await writer.close();
    t.is(await count(db, 'proofs'), 3);
    t.deepEqual(await db.knex('log_leaves').select('leaf_index', 'proof_id').orderBy('leaf_index'), [
      { leaf_index: 0, proof_id: a.row.proof_id },
      { leaf_index: 1, proof_id: b.row.proof_id },
    ]);
  });
});

test('a batch the database refuses is rolled back whole, and the writer goes on', async (t) => {
  await withSqliteFile(async (db, file) => {
    const writer = await SqliteProofWriter.open(file);
    const broken: PendingRow = { ...pending(2), row: { ...pending(2).row, task_id: null as unknown as string } };
    await t.throwsAsync(writer.write([pending(1), broken]), { message: /NOT NULL/ });
    t.is(await count(db, 'proofs'), 0);
    t.is(await count(db, 'proof_topics'), 0);
    t.is(await count(db, 'devices'), 0);
    t.deepEqual(await writer.write([pending(1)]), [{ stored: true, logIndex: 0 }]);
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

/** proof_topics and devices as (proof, topic) and (device, figures) rows, in a fixed order. */
async function derivedRows(db: Database): Promise<{ topics: unknown[]; devices: unknown[]; leaves: unknown[]; events: unknown }> {
  const topics = await db
    .knex('proof_topics')
    .join('proofs', 'proofs.id', 'proof_topics.proof_pk')
    .join('wallets', 'wallets.id', 'proof_topics.wallet_id')
    .select('proofs.wallet', 'proofs.proof_id', 'wallets.address as topic_wallet', 'topic')
    .orderBy(['proofs.wallet', 'proofs.proof_id', 'topic']);
  const devices = await db
    .knex('devices')
    .select('wallet', 'device_id', 'first_seen_ms', 'last_seen_ms', 'last_proof_at_ms', 'proof_count')
    .orderBy(['wallet', 'device_id']);
  const leaves = await db.knex('log_leaves').select('leaf_index', 'proof_id').orderBy('leaf_index');
  return { topics, devices, leaves, events: await announcedEvents(db) };
}

test('topics and device counts come out as the Knex writer makes them, odd ids and topics included', async (t) => {
  // Device ids at the edges of 128 characters, in bytes and in characters: 128 emoji (256
  // UTF-16 units, 512 bytes: a device the writer counts itself), 129 emoji (none), NUL
  // characters, an empty id, no id at all. Topics with quotes, NUL and emoji.
  const robots = [
    'arm-1',
    '\u{1F916}'.repeat(128),
    '\u{1F916}'.repeat(129),
    'x'.repeat(128),
    'x'.repeat(129),
    '\u0000'.repeat(128),
    'a\u0000b',
    '',
    undefined,
    'é'.repeat(128),
  ];
  const topics = ['nav/pose', `it's "quoted"`, 'nul\u0000topic', 'robot \u{1F916}', 'nav/pose'];
  const row = (i: number, wallet: string): PendingRow => {
    const robotId = robots[i % robots.length];
    const record = aProofRecord(
      wallet,
      { taskId: `task-${i}`, ...(robotId !== undefined ? { robotId } : {}), topics: topics.slice(i % 3) },
      1_800_000_000_000 + i * 1000,
    );
    return { row: toRow(record), topics: [...new Set(record.topics)] };
  };
  const all = Array.from({ length: 40 }, (_, i) => row(i, i % 2 === 0 ? WALLET_A : WALLET_B));
  // Repeats inside a batch and across batches, and one batch over a single statement's 500 rows.
  const batches = [all.slice(0, 10), [...all.slice(5, 20), all[6]!], all.slice(20, 40), Array.from({ length: 520 }, (_, i) => row(100 + i, WALLET_A))];

  const viaTrigger = await withSqliteFile(async (db, file) => {
    const writer = await SqliteProofWriter.open(file);
    const outcomes = [];
    for (const batch of batches) outcomes.push(await writer.write(batch));
    await writer.close();
    return { outcomes, rows: await derivedRows(db) };
  });
  // The same SQL on the Knex pool's own connection, borrowed per batch (the event loop's writer).
  const borrowed = await withSqliteFile(async (db) => {
    const writer = SqliteProofWriter.onKnex(db.knex);
    const outcomes = [];
    for (const batch of batches) outcomes.push(await writer.write(batch));
    await writer.close();
    return { outcomes, rows: await derivedRows(db) };
  });
  const viaKnex = await withSqliteFile(async (db) => {
    const writer = new KnexProofWriter(db.knex);
    const outcomes = [];
    // Knex's multi-row insert stops at 500 rows; the registry's batches stop at 200.
    for (const batch of batches) {
      const parts = [];
      for (let i = 0; i < batch.length; i += 200) parts.push(...(await writer.write(batch.slice(i, i + 200))));
      outcomes.push(parts);
    }
    return { outcomes, rows: await derivedRows(db) };
  });
  // Within a batch the leaves may come in another order (the oracle writes 200 rows at a
  // time), so outcomes are compared by the proof each leaf index names.
  const byProof = (run: typeof viaKnex) => {
    const proofOf = new Map((run.rows.leaves as Array<{ leaf_index: number; proof_id: string }>).map((l) => [l.leaf_index, l.proof_id]));
    return {
      outcomes: run.outcomes.map((batch) => batch.map(({ logIndex, ...o }) => ({ ...o, leaf: proofOf.get(logIndex!) }))),
      rows: { ...run.rows, leaves: [...proofOf.values()].sort(), leafCount: proofOf.size },
    };
  };
  t.deepEqual(byProof(viaTrigger), byProof(viaKnex));
  t.deepEqual(byProof(borrowed), byProof(viaKnex));
  t.is(byProof(viaKnex).rows.leafCount, 560);
  t.deepEqual(viaTrigger.rows.leaves, borrowed.rows.leaves);
  // The comparison is not empty: every device id the rule accepts was counted.
  const ids = (viaKnex.rows.devices as Array<{ device_id: string }>).map((d) => d.device_id);
  t.true(ids.includes('\u{1F916}'.repeat(128)) && ids.includes('é'.repeat(128)));
  // U+0000 is in no device id (PostgreSQL's text cannot hold it).
  t.false(ids.some((id) => id.includes('\u0000')));
  t.false(ids.includes('\u{1F916}'.repeat(129)) || ids.includes('x'.repeat(129)) || ids.includes(''));
  t.true((viaKnex.rows.topics as Array<{ topic: string }>).some((r) => r.topic === 'nul\u0000topic'));
});
