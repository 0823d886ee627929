import test from 'ava';
import type { CheckpointStore, PublishedCheckpoint } from '../../src/application/ports/checkpoint-store.js';
import type { DeclareTest } from '../support/databases.js';

export function aCheckpoint(size: number, over: Partial<PublishedCheckpoint> = {}): PublishedCheckpoint {
  const rootHash = new Uint8Array(32).fill(size % 251);
  return {
    size,
    rootHash,
    note: `registry.example/proof-registry\n${size}\nroot\n\n— registry.example/proof-registry AAAAAA==\n`,
    publishedAtMs: 1_790_000_000_000 + size,
    ...over,
  };
}

/** The CheckpointStore contract; `make` returns an empty store. */
export function checkpointStoreContract(name: string, make: () => Promise<CheckpointStore>, testFn: DeclareTest = test): void {
  testFn(`${name}: nothing is published at first; the first checkpoint, even of size 0, is`, async (t) => {
    const store = await make();
    t.is(await store.latest(), null);
    t.true(await store.publish(aCheckpoint(0)));
    t.deepEqual(await store.latest(), aCheckpoint(0));
  });

  testFn(`${name}: the latest checkpoint reads back exactly, signed note and root included`, async (t) => {
    const store = await make();
    const cp = aCheckpoint(2 ** 40 + 1, { note: 'o\n1\nx\n\n— o ✓ AAAA\n' });
    t.true(await store.publish(cp));
    t.deepEqual(await store.latest(), cp);
  });

  testFn(`${name}: a checkpoint no larger than the latest is refused and changes nothing`, async (t) => {
    const store = await make();
    t.true(await store.publish(aCheckpoint(10)));
    t.false(await store.publish(aCheckpoint(10, { note: 'another note' })));
    t.false(await store.publish(aCheckpoint(9)));
    t.deepEqual(await store.latest(), aCheckpoint(10));
    t.true(await store.publish(aCheckpoint(11)));
    t.deepEqual(await store.latest(), aCheckpoint(11));
  });

  testFn(`${name}: every published checkpoint is found by its size; a refused or unpublished size is not`, async (t) => {
    const store = await make();
    t.true(await store.publish(aCheckpoint(3)));
    t.true(await store.publish(aCheckpoint(8)));
    t.false(await store.publish(aCheckpoint(5)));
    t.deepEqual(await store.atSize(3), aCheckpoint(3));
    t.deepEqual(await store.atSize(8), aCheckpoint(8));
    t.is(await store.atSize(5), null);
    t.is(await store.atSize(4), null);
  });

  testFn(`${name}: publishers racing end with the largest checkpoint, never a smaller one`, async (t) => {
    const store = await make();
    const sizes = [5, 40, 12, 33, 7, 21];
    const results = await Promise.all(sizes.map((s) => store.publish(aCheckpoint(s))));
    t.deepEqual(await store.latest(), aCheckpoint(40));
    t.true(results[sizes.indexOf(40)]);
  });
}
