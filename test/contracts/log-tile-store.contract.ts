import test from 'ava';
import type { LogTileStore } from '../../src/application/ports/log-tile-store.js';
import type { DeclareTest } from '../support/databases.js';

/** A row of `width` hashes whose bytes depend on the tile and the position. */
export function aRow(level: number, index: number, width: number, salt = 0): Uint8Array {
  const row = new Uint8Array(width * 32);
  for (let i = 0; i < row.length; i++) row[i] = (level * 31 + index * 7 + i + salt) & 0xff;
  return row;
}

/** The LogTileStore contract; `make` returns an empty store. */
export function logTileStoreContract(name: string, make: () => Promise<LogTileStore>, testFn: DeclareTest = test): void {
  testFn(`${name}: a new log has size 0 and no tiles`, async (t) => {
    const store = await make();
    t.is(await store.integratedSize(), 0);
    t.deepEqual(
      await store.readTiles([
        { level: 0, index: 0 },
        { level: 1, index: 0 },
      ]),
      [null, null],
    );
    t.deepEqual(await store.readTiles([]), []);
  });

  testFn(`${name}: integrating stores the tiles and the new size together; tiles read back in the order asked`, async (t) => {
    const store = await make();
    t.true(
      await store.integrate(0, 300, [
        { level: 0, index: 0, hashes: aRow(0, 0, 256) },
        { level: 0, index: 1, hashes: aRow(0, 1, 44) },
        { level: 1, index: 0, hashes: aRow(1, 0, 1) },
      ]),
    );
    t.is(await store.integratedSize(), 300);
    t.deepEqual(
      await store.readTiles([
        { level: 1, index: 0 },
        { level: 0, index: 7 },
        { level: 0, index: 1 },
        { level: 0, index: 0 },
      ]),
      [aRow(1, 0, 1), null, aRow(0, 1, 44), aRow(0, 0, 256)],
    );
  });

  testFn(`${name}: a partial tile's row is replaced by its wider row`, async (t) => {
    const store = await make();
    t.true(await store.integrate(0, 3, [{ level: 0, index: 0, hashes: aRow(0, 0, 3) }]));
    t.true(
      await store.integrate(3, 256, [
        { level: 0, index: 0, hashes: aRow(0, 0, 256) },
        { level: 1, index: 0, hashes: aRow(1, 0, 1) },
      ]),
    );
    t.deepEqual(await store.readTiles([{ level: 0, index: 0 }]), [aRow(0, 0, 256)]);
    t.is(await store.integratedSize(), 256);
  });

  testFn(`${name}: integrating from a size that is no longer current writes nothing`, async (t) => {
    const store = await make();
    t.true(await store.integrate(0, 5, [{ level: 0, index: 0, hashes: aRow(0, 0, 5) }]));
    t.false(
      await store.integrate(0, 9, [
        { level: 0, index: 0, hashes: aRow(0, 0, 9, 1) },
        { level: 0, index: 1, hashes: aRow(0, 1, 1) },
      ]),
    );
    t.false(await store.integrate(7, 9, [{ level: 0, index: 0, hashes: aRow(0, 0, 9, 1) }]));
    t.is(await store.integratedSize(), 5);
    t.deepEqual(
      await store.readTiles([
        { level: 0, index: 0 },
        { level: 0, index: 1 },
      ]),
      [aRow(0, 0, 5), null],
    );
  });

  testFn(`${name}: of concurrent integrations from one size exactly one moves the log, and its tiles are the ones stored`, async (t) => {
    const store = await make();
    const results = await Promise.all(Array.from({ length: 6 }, (_, k) => store.integrate(0, 10 + k, [{ level: 0, index: 0, hashes: aRow(0, 0, 10 + k, k) }])));
    t.is(results.filter(Boolean).length, 1);
    const winner = results.indexOf(true);
    t.is(await store.integratedSize(), 10 + winner);
    t.deepEqual(await store.readTiles([{ level: 0, index: 0 }]), [aRow(0, 0, 10 + winner, winner)]);
  });

  testFn(`${name}: rows are copied in and out: changing a buffer changes nothing stored`, async (t) => {
    const store = await make();
    const row = aRow(0, 0, 2);
    t.true(await store.integrate(0, 2, [{ level: 0, index: 0, hashes: row }]));
    row.fill(0);
    const [read] = await store.readTiles([{ level: 0, index: 0 }]);
    read!.fill(1);
    t.deepEqual(await store.readTiles([{ level: 0, index: 0 }]), [aRow(0, 0, 2)]);
  });

  testFn(`${name}: sizes and tile indexes past 2^32, and many tiles in one step`, async (t) => {
    const store = await make();
    const big = 2 ** 40 + 3;
    const many = Array.from({ length: 600 }, (_, i) => ({ level: 0, index: i, hashes: aRow(0, i, 256) }));
    t.true(await store.integrate(0, big, [...many, { level: 0, index: 2 ** 33, hashes: aRow(0, 5, 3) }]));
    t.is(await store.integratedSize(), big);
    t.deepEqual(
      await store.readTiles([
        { level: 0, index: 2 ** 33 },
        { level: 0, index: 599 },
      ]),
      [aRow(0, 5, 3), aRow(0, 599, 256)],
    );
    const all = await store.readTiles(many.map((m) => m));
    t.true(all.every((row, i) => row !== null && row.length === 8192 && row[0] === aRow(0, i, 1)[0]));
  });
}
