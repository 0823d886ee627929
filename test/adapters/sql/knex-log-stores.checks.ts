import type { TestFn } from 'ava';
import { KnexCheckpointStore } from '../../../src/adapters/sql/knex-checkpoint-store.js';
import { KnexLogLease } from '../../../src/adapters/sql/knex-log-lease.js';
import { KnexLogTileStore } from '../../../src/adapters/sql/knex-log-tile-store.js';
import { KnexSequencedLeaves } from '../../../src/adapters/sql/knex-sequenced-leaves.js';
import { toRow } from '../../../src/adapters/sql/proof-rows.js';
import type { PendingRow, ProofWriter } from '../../../src/adapters/sql/proof-writer.js';
import type { Database } from '../../../src/adapters/sql/index.js';
import { bytesToHex } from '../../../src/domain/protocol/encoding.js';
import { checkpointStoreContract } from '../../contracts/checkpoint-store.contract.js';
import { logTileStoreContract } from '../../contracts/log-tile-store.contract.js';
import { sequencedLeavesContract } from '../../contracts/sequenced-leaves.contract.js';
import type { DeclareTest } from '../../support/databases.js';
import { aProofRecord, WALLET_A } from '../../support/mothers.js';

const template = toRow(aProofRecord(WALLET_A));

/** A proof row whose proof_id is `leaf` in hex: what the log sequences. */
export function pendingLeaf(leaf: Uint8Array): PendingRow {
  return { row: { ...template, proof_id: bytesToHex(leaf) }, topics: [] };
}

/**
 * The log's stores on one SQL database: the contract suites, and the lease. `writerFor` makes
 * a proof writer on the database (one per call, so concurrent appends are concurrent
 * transactions where the database allows it).
 */
export function knexLogStoreChecks(
  name: string,
  test: TestFn,
  fresh: () => Promise<Database>,
  writerFor: (db: Database) => ProofWriter,
  testFn: DeclareTest,
): void {
  logTileStoreContract(name, async () => new KnexLogTileStore(await fresh()), testFn);
  checkpointStoreContract(name, async () => new KnexCheckpointStore(await fresh()), testFn);
  sequencedLeavesContract(
    name,
    async () => {
      const db = await fresh();
      return {
        leaves: new KnexSequencedLeaves(db),
        async append(batch) {
          await writerFor(db).write(batch.map(pendingLeaf));
        },
      };
    },
    testFn,
  );

  testFn(`${name}: the lease is held by one instance at a time, renewed by its holder, and free once expired or released`, async (t) => {
    const lease = new KnexLogLease(await fresh());
    t.true(await lease.acquire('a', 1_000, 500));
    t.false(await lease.acquire('b', 1_200, 500));
    t.true(await lease.acquire('a', 1_400, 500));
    t.false(await lease.acquire('b', 1_800, 500));
    t.true(await lease.acquire('b', 1_901, 500));
    t.false(await lease.acquire('a', 1_950, 500));
    await lease.release('a'); // not a's: changes nothing
    t.false(await lease.acquire('a', 1_960, 500));
    await lease.release('b');
    t.true(await lease.acquire('a', 1_970, 500));
  });

  testFn(`${name}: of instances racing for a free lease exactly one gets it`, async (t) => {
    const lease = new KnexLogLease(await fresh());
    const results = await Promise.all(['a', 'b', 'c', 'd'].map((h) => lease.acquire(h, 5_000, 1_000)));
    t.is(results.filter(Boolean).length, 1);
  });
  void test;
}
