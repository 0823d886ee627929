import test from 'ava';
import { MemoryLogTileStore } from '../../../src/adapters/memory/memory-log-tile-store.js';
import { LogTree } from '../../../src/application/log/log-tree.js';
import type { TileId } from '../../../src/domain/log/tiles.js';
import { aLog, right } from '../../support/log-app.js';
import { hex, ReferenceTree, sha } from '../../support/log.js';

/** Counts the tiles read from the store. */
class CountingTiles extends MemoryLogTileStore {
  reads: string[] = [];
  override async readTiles(ids: readonly TileId[]) {
    this.reads.push(...ids.map((id) => `${id.level}/${id.index}`));
    return super.readTiles(ids);
  }
}

test('a proof served from cached tiles reads nothing from the store', async (t) => {
  const tiles = new CountingTiles();
  const log = aLog({ tiles });
  log.sequence(0, 5000);
  right(await log.advance.execute());
  tiles.reads = [];
  const first = await log.tree.inclusion(1234, 5000);
  t.true(tiles.reads.length > 0);
  t.true(tiles.reads.length <= 3, `read ${tiles.reads.join(', ')}`);
  tiles.reads = [];
  t.deepEqual((await log.tree.inclusion(1234, 5000)).map(hex), first.map(hex));
  t.deepEqual(tiles.reads, []);
});

test('a cached partial tile answers for the hashes it has, and is read again when the tree outgrows it', async (t) => {
  const tiles = new CountingTiles();
  const log = aLog({ tiles });
  log.sequence(0, 300);
  right(await log.advance.execute());
  await log.tree.root(300);
  log.sequence(300, 400);
  right(await log.integrate.execute());
  tiles.reads = [];
  await log.tree.root(300);
  t.deepEqual(tiles.reads, [], 'the older size is within the cached rows');
  t.is(hex(await log.tree.root(400)), hex(ReferenceTree.ofSize(400).mth()));
  t.deepEqual(tiles.reads, ['0/1'], 'the wider edge tile is read again');
});

test('a tile the tree needs but the store lacks is an error, not a wrong proof', async (t) => {
  const tiles = new MemoryLogTileStore();
  await tiles.integrate(0, 300, []);
  const tree = new LogTree(tiles, sha);
  await t.throwsAsync(tree.root(300), { message: 'tile 1/0 has 0 hashes; the tree needs 1' });
});
