import test from 'ava';
import { ScaleLoader } from '../../bench/scale-load.js';
import { BIG, scaleProof } from '../../bench/scale-data.js';
import { migrateLatest, openDatabase } from '../../src/adapters/sql/index.js';
import { SqliteProofWriter } from '../../src/adapters/sql/sqlite-proof-writer.js';
import type { ProofRecord } from '../../src/domain/proof/proof-record.js';
import { protocol } from '../support/protocol.js';

test('the scale loader stores, from its worker threads, the proofs scaleProof makes, each verifying', async (t) => {
  const db = await openDatabase('sqlite::memory:');
  t.teardown(() => db.close());
  await migrateLatest(db);
  const loader = await ScaleLoader.start(2);
  t.teardown(() => loader.close());
  const sample: ProofRecord[] = [];
  const total = 2_000;
  await loader.load(SqliteProofWriter.onKnex(db.knex), 0, 1_200, total, sample);
  await loader.load(SqliteProofWriter.onKnex(db.knex), 1_200, total, total, sample);

  const rows = (await db.knex('proofs').select('proof_id', 'wallet', 'envelope')) as Array<{ proof_id: string; wallet: string; envelope: string }>;
  t.is(rows.length, total);
  const byId = new Map(rows.map((row) => [row.proof_id, row]));
  const expected = Array.from({ length: total }, (_, k) => scaleProof(k, total));
  expected.forEach(({ wallet, envelope }, k) => {
    const row = byId.get(envelope.payload.payload_hash);
    t.is(row?.envelope, JSON.stringify(envelope), `proof ${k} is stored as scaleProof(${k}) makes it`);
    t.is(row?.wallet, wallet);
    t.true(protocol.verifyText(row!.envelope).valid, `proof ${k} verifies`);
  });
  t.deepEqual(
    sample.map((r) => r.proofId),
    expected.filter((p, k) => p.wallet === BIG && k % 997 === 0).map((p) => p.envelope.payload.payload_hash),
  );
});
