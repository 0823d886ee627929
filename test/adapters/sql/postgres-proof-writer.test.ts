import test from 'ava';
import type { Database } from '../../../src/adapters/sql/database.js';
import { insertBatchValues, INSERT_SEQUENCED_BATCH_SQL, PostgresProofWriter } from '../../../src/adapters/sql/postgres-proof-writer.js';
import { firstOfEachProof, type PendingRow, type ProofWriter } from '../../../src/adapters/sql/proof-writer.js';
import { knexWalletLookup, WalletKeys } from '../../../src/adapters/sql/wallet-keys.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import { withPostgresSchema } from '../../support/databases.js';
import { announcedEvents } from '../../support/announced-events.js';
import { KnexProofWriter } from '../../support/knex-proof-writer.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../../support/mothers.js';

// The one-statement PostgreSQL writer on its own, held to the Knex transaction it replaces.
// The ProofStore contract and the fleet suites run through it too (it is the PostgreSQL
// default); this compares every derived row, for values that need quoting in a PostgreSQL
// array, which is how the statement receives them.

async function count(db: Database, table: string): Promise<number> {
  const [row] = await db.knex(table).count({ n: '*' });
  return Number(row?.n);
}

/** proofs, proof_topics and devices as plain rows in a fixed order (ids left out: they are the sequence's). */
async function storedRows(db: Database): Promise<Record<string, unknown[]>> {
  const proofs = await db.knex('proofs').select('*').orderBy(['wallet', 'proof_id']);
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
  return { proofs: proofs.map(({ id: _id, ...row }: Record<string, unknown>) => row), topics, devices, leaves, events: [await announcedEvents(db)] };
}

// Values an array literal must quote or escape: commas, braces, quotes, backslashes, spaces,
// the word NULL, the empty string, non-ASCII. Device ids at the 128-unit edge, in and out.
const ROBOTS = [
  'arm-1',
  'NULL',
  'a,b',
  '{braced}',
  'say "hi"',
  'back\\slash',
  ' spaced ',
  '\u{1F916}'.repeat(128),
  '\u{1F916}'.repeat(129),
  'x'.repeat(128),
  'x'.repeat(129),
  '',
  undefined,
  'é'.repeat(128),
];
const TOPICS = ['nav/pose', `it's "quoted"`, 'NULL', 'a,b', '{x}', 'back\\slash', 'robot \u{1F916}', 'nav/pose'];

const pending = (i: number, wallet: string): PendingRow => {
  const robotId = ROBOTS[i % ROBOTS.length];
  const record = aProofRecord(
    wallet,
    { taskId: `task-${i}, "odd" {${i}}`, ...(robotId !== undefined ? { robotId } : {}), topics: TOPICS.slice(i % 4) },
    1_800_000_000_000 + i * 1000,
  );
  return { row: toRow(record), topics: [...new Set(record.topics)] };
};

async function writeAll(db: Database, writer: ProofWriter, batches: readonly PendingRow[][]): Promise<unknown[]> {
  const outcomes = [];
  for (const batch of batches) outcomes.push(await writer.write(batch));
  return outcomes;
}

test('postgres: one statement a batch stores what the Knex transaction stores, outcomes included', async (t) => {
  const all = Array.from({ length: 60 }, (_, i) => pending(i, i % 2 === 0 ? WALLET_A : WALLET_B));
  // Repeats inside a batch and across batches, and a batch of 200 (the registry's largest).
  const batches = [
    all.slice(0, 10),
    [...all.slice(5, 25), all[6]!, all[24]!],
    all.slice(25, 60),
    Array.from({ length: 200 }, (_, i) => pending(100 + i, WALLET_A)),
    all.slice(0, 3),
  ];
  const one = await withPostgresSchema('row_writer_one', async (db) => ({
    outcomes: await writeAll(db, new PostgresProofWriter(db.knex), batches),
    rows: await storedRows(db),
  }));
  const knex = await withPostgresSchema('row_writer_knex', async (db) => ({
    outcomes: await writeAll(db, new KnexProofWriter(db.knex), batches),
    rows: await storedRows(db),
  }));
  t.deepEqual(one.outcomes, knex.outcomes);
  t.deepEqual(one.rows, knex.rows);
  // The comparison is not empty, and the odd values went in and came out unchanged.
  t.is(one.rows.proofs!.length, 260);
  const ids = (one.rows.devices as Array<{ device_id: string }>).map((d) => d.device_id);
  for (const id of ['NULL', 'a,b', '{braced}', 'say "hi"', 'back\\slash', ' spaced ', '\u{1F916}'.repeat(128), 'é'.repeat(128)]) t.true(ids.includes(id), id);
  t.false(ids.includes('\u{1F916}'.repeat(129)) || ids.includes('x'.repeat(129)) || ids.includes(''));
  const topics = new Set((one.rows.topics as Array<{ topic: string }>).map((r) => r.topic));
  for (const topic of TOPICS) t.true(topics.has(topic), topic);
});

test('postgres: a batch the database refuses writes nothing, and the writer goes on', async (t) => {
  await withPostgresSchema('row_writer_refused', async (db) => {
    const writer = new PostgresProofWriter(db.knex);
    t.deepEqual(await writer.write([]), []);
    // PostgreSQL text cannot hold U+0000: the whole statement fails, its good proof included.
    const good = pending(1, WALLET_A);
    const broken: PendingRow = { ...pending(2, WALLET_A), topics: ['nul\u0000topic'] };
    await t.throwsAsync(writer.write([good, broken]));
    t.is(await count(db, 'proofs'), 0);
    t.is(await count(db, 'proof_topics'), 0);
    t.is(await count(db, 'devices'), 0);
    t.deepEqual(await writer.write([good]), [{ stored: true, logIndex: 0 }]);
    const [again] = await writer.write([good]);
    t.false(again!.stored);
    t.is(!again!.stored && again!.existing.envelope, good.row.envelope);
    t.is(await count(db, 'proofs'), 1);
  });
});

test('postgres: concurrent statements from two writers store each proof once and count each device proof once', async (t) => {
  await withPostgresSchema('row_writer_race', async (db) => {
    const [a, b] = [new PostgresProofWriter(db.knex), new PostgresProofWriter(db.knex)];
    // Both writers get overlapping batches with the same devices, in opposite orders.
    const rows = Array.from({ length: 120 }, (_, i) => pending(i, WALLET_A));
    const batches = Array.from({ length: 12 }, (_, k) => rows.slice(k * 8, k * 8 + 24));
    const outcomes = await Promise.all([...batches.map((batch) => a.write(batch)), ...batches.reverse().map((batch) => b.write([...batch].reverse()))]);
    const stored = outcomes.flat().filter((o) => o.stored).length;
    t.is(stored, await count(db, 'proofs'));
    t.is(await count(db, 'proofs'), new Set(batches.flat().map((p) => p.row.proof_id)).size);
    const counted = await db.knex('devices').sum({ n: 'proof_count' });
    const withDevice = await db
      .knex('proofs')
      .whereIn(
        'robot_id',
        (await db.knex('devices').select('device_id')).map((d: { device_id: string }) => d.device_id),
      )
      .count({ n: '*' });
    t.is(Number(counted[0]!.n), Number(withDevice[0]!.n));
  });
});

test('postgres: a batch finds its proof_ids in the log through the index, with or without statistics', async (t) => {
  await withPostgresSchema('row_writer_plan', async (db) => {
    // Never analyzed, as a new database is until autovacuum gets to it (and always where autovacuum is off).
    await db.knex.raw('alter table log_leaves set (autovacuum_enabled = false)');
    const writer = new PostgresProofWriter(db.knex);
    for (let b = 0; b < 10; b++) await writer.write(Array.from({ length: 200 }, (_, i) => pending(1_000 + b * 200 + i, WALLET_A)));
    const [{ analyzed }] = (
      await db.knex.raw("select count(*)::int as analyzed from pg_stats where schemaname = current_schema() and tablename = 'log_leaves'")
    ).rows as [{ analyzed: number }];
    t.is(analyzed, 0, 'the table has no statistics');
    // The next batch of 200, half of it proofs the log already holds.
    const batch = firstOfEachProof([
      ...Array.from({ length: 100 }, (_, i) => pending(1_000 + i, WALLET_A)),
      ...Array.from({ length: 100 }, (_, i) => pending(5_000 + i, WALLET_A)),
    ]);
    const values = insertBatchValues(batch, await new WalletKeys(knexWalletLookup(db.knex)).of([WALLET_A]));
    const client = db.knex.client as { acquireConnection(): Promise<PlanClient>; releaseConnection(c: PlanClient): Promise<void> };
    const connection = await client.acquireConnection();
    try {
      const { rows } = await connection.query({ text: `explain ${INSERT_SEQUENCED_BATCH_SQL}`, values });
      const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
      t.notRegex(plan, /Seq Scan on log_leaves/);
      t.regex(plan, /Index Scan (using|on) log_leaves_proof_id_excl/);
    } finally {
      await client.releaseConnection(connection);
    }
  });
});

interface PlanClient {
  query(config: { text: string; values: unknown[] }): Promise<{ rows: Array<Record<string, string>> }>;
}
