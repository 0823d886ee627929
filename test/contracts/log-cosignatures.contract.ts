import test from 'ava';
import type { LogCosignatures } from '../../src/application/ports/log-cosignatures.js';
import type { DeclareTest } from '../support/databases.js';

const line = (witness: string, n: number) => `— ${witness} ${'A'.repeat(n)}==\n`;

/** The LogCosignatures contract; `make` returns an empty store. */
export function logCosignaturesContract(name: string, make: () => Promise<LogCosignatures>, testFn: DeclareTest = test): void {
  testFn(`${name}: nothing at first; a cosignature is held for its size, in witness name order`, async (t) => {
    const store = await make();
    t.deepEqual(await store.linesAt(3), []);
    t.deepEqual(await store.witnesses(), []);
    await store.record('w.example/b', 3, line('w.example/b', 4), 1_000);
    await store.record('w.example/a', 3, line('w.example/a', 4), 2_000);
    t.deepEqual(await store.linesAt(3), [line('w.example/a', 4), line('w.example/b', 4)]);
    t.deepEqual(await store.linesAt(4), []);
    t.deepEqual(await store.witnesses(), [
      { name: 'w.example/a', lastCosignedSize: 3, lastCosignedAtMs: 2_000, lastError: null },
      { name: 'w.example/b', lastCosignedSize: 3, lastCosignedAtMs: 1_000, lastError: null },
    ]);
  });

  testFn(`${name}: a newer cosignature of the same size replaces the older; the size only grows`, async (t) => {
    const store = await make();
    await store.record('w', 2 ** 40, line('w', 4), 1_000);
    await store.record('w', 2 ** 40, line('w', 8), 2_000);
    t.deepEqual(await store.linesAt(2 ** 40), [line('w', 8)]);
    await store.record('w', 5, line('w', 12), 3_000);
    t.deepEqual(await store.linesAt(5), [line('w', 12)]);
    t.is((await store.witnesses())[0]!.lastCosignedSize, 2 ** 40);
  });

  testFn(`${name}: an error is kept beside the last size, and cleared by the next cosignature`, async (t) => {
    const store = await make();
    await store.recordError('w', 'connect ECONNREFUSED', 500);
    t.deepEqual(await store.witnesses(), [{ name: 'w', lastCosignedSize: null, lastCosignedAtMs: null, lastError: 'connect ECONNREFUSED' }]);
    await store.record('w', 7, line('w', 4), 1_000);
    await store.recordError('w', 'HTTP 500: down', 2_000);
    t.deepEqual(await store.witnesses(), [{ name: 'w', lastCosignedSize: 7, lastCosignedAtMs: 1_000, lastError: 'HTTP 500: down' }]);
    await store.record('w', 8, line('w', 4), 3_000);
    t.deepEqual(await store.witnesses(), [{ name: 'w', lastCosignedSize: 8, lastCosignedAtMs: 3_000, lastError: null }]);
  });
}
