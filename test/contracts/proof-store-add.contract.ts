import test from 'ava';
import type { ProofStore } from '../../src/application/ports/proof-store.js';
import type { DeclareTest } from '../support/databases.js';
import { aProofRecord, WALLET_A, WALLET_B } from '../support/mothers.js';

/**
 * The ProofStore contract, adding and reading proofs: leaf indexes, duplicates, wallets. Every
 * adapter (memory, SQLite, PostgreSQL) runs it with proofStoreSearchContract; `make` returns a
 * fresh, empty store for each test. Pass `test.serial` when `make` empties a database shared by
 * the tests of a file.
 */
export function proofStoreAddContract(name: string, make: () => Promise<ProofStore>, testFn: DeclareTest = test): void {
  testFn(`${name}: add stores a proof and get returns it unchanged`, async (t) => {
    const store = await make();
    const record = aProofRecord(WALLET_A, { robotId: 'arm-1', runId: 'r1', meta: { site: 'Lyon' } });
    const added = await store.add(record);
    t.true(added.stored);
    // The first proof of the log: leaf 0.
    t.deepEqual(added.record, { ...record, logIndex: 0 });
    t.deepEqual(await store.get(WALLET_A, record.proofId), { ...record, logIndex: 0 });
  });

  testFn(`${name}: each distinct proof id gets the next leaf index; the same proof again, from any wallet, adds none`, async (t) => {
    const store = await make();
    const a = aProofRecord(WALLET_A, {}, 1);
    const b = aProofRecord(WALLET_A, { taskId: 'log-b' }, 2);
    t.is((await store.add(a)).record.logIndex, 0);
    t.is((await store.add(b)).record.logIndex, 1);
    const again = await store.add({ ...a, receivedAtMs: 5 });
    t.false(again.stored);
    t.is(again.record.logIndex, 0);
    const otherWallet = await store.add({ ...b, wallet: WALLET_B });
    t.true(otherWallet.stored);
    t.is(otherWallet.record.logIndex, 1);
    t.is((await store.get(WALLET_B, b.proofId))?.logIndex, 1);
    const c = aProofRecord(WALLET_B, { taskId: 'log-c' }, 3);
    t.is((await store.add(c)).record.logIndex, 2);
  });

  testFn(`${name}: concurrent adds of distinct proofs, some repeated, take the indexes 0 … n − 1 once each`, async (t) => {
    const store = await make();
    const records = Array.from({ length: 30 }, (_, i) => aProofRecord(i % 2 ? WALLET_A : WALLET_B, { taskId: `log-${i % 20}` }, i));
    const results = await Promise.all(records.map((r) => store.add(r)));
    const byProof = new Map<string, number>();
    for (const r of results) {
      const known = byProof.get(r.record.proofId);
      if (known !== undefined) t.is(r.record.logIndex, known);
      else byProof.set(r.record.proofId, r.record.logIndex!);
    }
    t.deepEqual(
      [...byProof.values()].sort((x, y) => x - y),
      Array.from({ length: 20 }, (_, i) => i),
    );
  });

  testFn(`${name}: a second add of the same proof id keeps the first copy`, async (t) => {
    const store = await make();
    const first = aProofRecord(WALLET_A, { taskId: 't' }, 1_000);
    await store.add(first);
    const again = await store.add({ ...first, receivedAtMs: 2_000, signerPublicKeyB64: 'changed' });
    t.false(again.stored);
    t.deepEqual(again.record, { ...first, logIndex: 0 });
    t.deepEqual(await store.get(WALLET_A, first.proofId), { ...first, logIndex: 0 });
  });

  testFn(`${name}: concurrent adds of one proof leave exactly one stored copy`, async (t) => {
    const store = await make();
    const record = aProofRecord(WALLET_A);
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => store.add({ ...record, receivedAtMs: i })));
    t.is(results.filter((r) => r.stored).length, 1);
    const page = await store.search(WALLET_A, { order: 'desc', limit: 50 });
    t.is(page.items.length, 1);
  });

  testFn(`${name}: wallets are isolated`, async (t) => {
    const store = await make();
    const a = aProofRecord(WALLET_A);
    await store.add(a);
    t.is(await store.get(WALLET_B, a.proofId), null);
    t.is((await store.search(WALLET_B, { order: 'desc', limit: 50 })).items.length, 0);
    // The same proof may be registered by another wallet too; each keeps its own copy.
    const b = { ...a, wallet: WALLET_B, receivedAtMs: a.receivedAtMs + 1 };
    t.true((await store.add(b)).stored);
    t.is((await store.get(WALLET_B, a.proofId))?.receivedAtMs, b.receivedAtMs);
    t.is((await store.get(WALLET_A, a.proofId))?.receivedAtMs, a.receivedAtMs);
  });

  testFn(`${name}: get of an unknown id is null`, async (t) => {
    const store = await make();
    t.is(await store.get(WALLET_A, 'f'.repeat(64)), null);
  });
}
