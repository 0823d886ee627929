import type { ProofWriter } from '../src/adapters/sql/proof-writer.js';
import { KnexProofWriter } from '../test/support/knex-proof-writer.js';
import { PostgresProofWriter } from '../src/adapters/sql/postgres-proof-writer.js';
import { toRow } from '../src/adapters/sql/proof-rows.js';
import { withPostgresSchema } from '../test/support/databases.js';
import { aProofRecord, WALLET_A } from '../test/support/mothers.js';

/**
 * `npx tsx bench/postgres-writes.ts`: the time of one single-proof batch on PostgreSQL,
 * written through Knex (BEGIN, proofs, topics, devices, COMMIT) and as the one prepared
 * statement the registry uses, in turns, in a schema of its own (TEST_POSTGRES_URL).
 * Single-proof batches are what a steady, moderate load makes.
 */
const PER_ROUND = Number(process.env.BENCH_WRITES ?? 100);
const ROUNDS = 3;

await withPostgresSchema('bench_writes', async (db) => {
  const records = Array.from({ length: 2 * ROUNDS * PER_ROUND + 40 }, (_, i) => aProofRecord(WALLET_A, { taskId: `write-${i}`, robotId: `robot-${i % 64}` }));
  let next = 0;
  const writeOne = (writer: ProofWriter) => async () => {
    const record = records[next++]!;
    await writer.write([{ row: toRow(record), topics: [...new Set(record.topics)] }]);
  };
  const contenders = {
    'through Knex, one transaction': writeOne(new KnexProofWriter(db.knex)),
    'one statement (the registry)': writeOne(new PostgresProofWriter(db.knex)),
  };
  for (const write of Object.values(contenders)) for (let i = 0; i < 20; i++) await write();
  console.log('| single-proof batch on PostgreSQL | ms per batch, each round |\n| --- | --- |');
  const times = new Map<string, string[]>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, write] of Object.entries(contenders)) {
      const started = performance.now();
      for (let i = 0; i < PER_ROUND; i++) await write();
      times.set(name, [...(times.get(name) ?? []), ((performance.now() - started) / PER_ROUND).toFixed(2)]);
    }
  }
  for (const [name, ms] of times) console.log(`| ${name} | ${ms.join(', ')} |`);
});
