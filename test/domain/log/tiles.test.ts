import test from 'ava';
import { appendToTiles, type TileContent } from '../../../src/domain/log/append-to-tiles.js';
import { leafHash } from '../../../src/domain/log/merkle.js';
import { consistencyPlan, inclusionPlan, planNodes, rootPlan } from '../../../src/domain/log/proof-plans.js';
import { expandTile, hashInTile, tileRoot } from '../../../src/domain/log/tile-hashes.js';
import { entriesPath, parseTilePath, tileIndexPath, tilePath } from '../../../src/domain/log/tile-paths.js';
import { locateNode, partialTiles, tileKey, tileWidth } from '../../../src/domain/log/tiles.js';
import { encodeEntryBundle, decodeEntryBundle } from '../../../src/domain/log/entry-bundles.js';
import { hex, leafData, ReferenceTree, sha } from '../../support/log.js';

test('tile indexes are written in 3-digit groups, all but the last with an x (C2SP)', (t) => {
  const cases: Array<[number, string]> = [
    [0, '000'],
    [7, '007'],
    [999, '999'],
    [1000, 'x001/000'],
    [67_000, 'x067/000'],
    [999_999, 'x999/999'],
    [1_000_000, 'x001/x000/000'],
    [1_234_067, 'x001/x234/067'],
  ];
  for (const [index, path] of cases) t.is(tileIndexPath(index), path, String(index));
});

test('tile and entry bundle paths: full tiles bare, partial tiles with .p/<width>', (t) => {
  t.is(tilePath({ level: 0, index: 1_234_067, width: 256 }), 'tile/0/x001/x234/067');
  t.is(tilePath({ level: 2, index: 5, width: 17 }), 'tile/2/005.p/17');
  t.is(entriesPath({ index: 1000, width: 256 }), 'tile/entries/x001/000');
  t.is(entriesPath({ index: 0, width: 1 }), 'tile/entries/000.p/1');
});

test('tile paths parse back, and only their one canonical spelling does', (t) => {
  t.deepEqual(parseTilePath('tile/0/x001/x234/067'), { level: 0, index: 1_234_067, width: 256 });
  t.deepEqual(parseTilePath('tile/63/000.p/255'), { level: 63, index: 0, width: 255 });
  t.deepEqual(parseTilePath('tile/entries/x001/000.p/3'), { level: 'entries', index: 1000, width: 3 });
  const refused = [
    'tile/0/x000/001', // a leading zero group
    'tile/00/000', // a leading zero in the level
    'tile/64/000', // levels stop at 63
    'tile/0/000.p/0',
    'tile/0/000.p/256', // a tile of 256 is full: no suffix
    'tile/0/000.p/07',
    'tile/0/1',
    'tile/0/0001',
    'tile/0/x001', // the last group has no x
    'tile/0/X001/000',
    'tile/entries/000.p/',
    'tile/data/000',
    '/tile/0/000',
    'tile/0/000/',
  ];
  for (const path of refused) t.is(parseTilePath(path), null, path);
});

test('the C2SP example: a tree of 70,000 leaves, as full and partial tiles', (t) => {
  t.deepEqual(partialTiles(70_000), [
    { level: 0, index: 273, width: 112 },
    { level: 1, index: 1, width: 17 },
    { level: 2, index: 0, width: 1 },
  ]);
  t.is(tileWidth({ level: 0, index: 272 }, 70_000), 256);
  t.is(tileWidth({ level: 0, index: 274 }, 70_000), 0);
  t.is(tileWidth({ level: 1, index: 0 }, 70_000), 256);
  // "a tree of size 256 will be represented by a full level 0 tile and a partial level 1 tile of width 1"
  t.deepEqual(partialTiles(256), [{ level: 1, index: 0, width: 1 }]);
  t.is(tileWidth({ level: 0, index: 0 }, 256), 256);
  t.deepEqual(partialTiles(0), []);
});

test('a perfect subtree lies in one tile: the hashes it is rebuilt from', (t) => {
  t.deepEqual(locateNode({ level: 0, index: 300 }), { tile: { level: 0, index: 1 }, offset: 44, count: 1, width: 45 });
  t.deepEqual(locateNode({ level: 3, index: 33 }), { tile: { level: 0, index: 1 }, offset: 8, count: 8, width: 16 });
  t.deepEqual(locateNode({ level: 8, index: 5 }), { tile: { level: 1, index: 0 }, offset: 5, count: 1, width: 6 });
  t.deepEqual(locateNode({ level: 10, index: 3 }), { tile: { level: 1, index: 0 }, offset: 12, count: 4, width: 16 });
  t.deepEqual(locateNode({ level: 47, index: 1 }), { tile: { level: 5, index: 0 }, offset: 128, count: 128, width: 256 });
});

test('entry bundles: uint16 big-endian lengths, and they decode back', (t) => {
  const entries = [leafData(0), new Uint8Array(0), new Uint8Array([1, 2, 3])];
  const bundle = encodeEntryBundle(entries);
  t.is(hex(bundle.subarray(0, 2)), '0020');
  t.is(bundle.length, 2 + 32 + 2 + 2 + 3);
  t.deepEqual(decodeEntryBundle(bundle), entries);
  t.is(decodeEntryBundle(bundle.subarray(0, bundle.length - 1)), null);
});

/** Grows a tree through appendToTiles in uneven batches, keeping the tiles in a map. */
function growTiles(total: number, batches: readonly number[]): Map<string, TileContent> {
  const stored = new Map<string, TileContent>();
  let size = 0;
  let b = 0;
  while (size < total) {
    const count = Math.min(total - size, batches[b++ % batches.length]!);
    const edge = partialTiles(size).map((p) => stored.get(tileKey(p))!);
    const leaves = Array.from({ length: count }, (_, i) => leafHash(sha, leafData(size + i)));
    for (const tile of appendToTiles(sha, size, edge, leaves)) stored.set(tileKey(tile), tile);
    size += count;
  }
  return stored;
}

test('tiles grown leaf batch by leaf batch hold exactly the hashes C2SP defines, at 70,000 leaves', (t) => {
  const n = 70_000;
  const tiles = growTiles(n, [1, 255, 3000, 17, 256, 9000]);
  const tree = ReferenceTree.ofSize(n);
  // The n-th tile at level l holds MTH(D[(n·256 + i)·256^l : (n·256 + i + 1)·256^l]) for each i.
  for (const [level, index, width] of [
    [0, 0, 256],
    [0, 150, 256],
    [0, 273, 112],
    [1, 0, 256],
    [1, 1, 17],
    [2, 0, 1],
  ] as const) {
    const tile = tiles.get(tileKey({ level, index }))!;
    t.is(tile.hashes.length, width * 32, `tile ${level}/${index}`);
    const span = 256 ** level;
    for (const i of [0, Math.floor(width / 2), width - 1]) {
      const start = (index * 256 + i) * span;
      t.is(hex(tile.hashes.subarray(i * 32, i * 32 + 32)), hex(tree.mth(start, start + span)), `tile ${level}/${index} hash ${i}`);
    }
  }
  t.is(tiles.size, 274 + 2 + 1);
  t.is(hex(tileRoot(sha, tiles.get('0/5')!.hashes)), hex(tree.mth(5 * 256, 6 * 256)));
});

test('every node a root or a proof needs is rebuilt from the stored tiles as the reference has it', (t) => {
  const n = 65_536 + 5 * 256 + 77;
  const tiles = growTiles(n, [1000, 1, 65_000]);
  const tree = ReferenceTree.ofSize(n);
  const viaTiles = (node: { level: number; index: number }): Uint8Array => {
    const where = locateNode(node);
    const tile = tiles.get(tileKey(where.tile))!;
    return hashInTile(expandTile(sha, tile.hashes), where);
  };
  const nodes = [
    rootPlan(n),
    ...inclusionPlan(0, n),
    ...inclusionPlan(n - 1, n),
    ...inclusionPlan(40_001, n),
    ...consistencyPlan(65_537, n),
    ...consistencyPlan(1_000, n),
  ].flat();
  for (const node of planNodes([nodes])) {
    const span = 2 ** node.level;
    t.is(hex(viaTiles(node)), hex(tree.mth(node.index * span, (node.index + 1) * span)), `node ${node.level}/${node.index}`);
  }
});

test('appending to tiles that disagree with the tree size throws rather than build another tree', (t) => {
  const tiles = growTiles(300, [300]);
  const edge = partialTiles(301).map((p) => tiles.get(tileKey(p))!);
  t.throws(() => appendToTiles(sha, 301, edge, [leafHash(sha, leafData(301))]), { message: /should have 45 hashes/ });
});
