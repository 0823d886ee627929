import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { decodeEntryBundle } from '../../../src/domain/log/entry-bundles.js';
import { foldFromRight } from '../../../src/domain/log/merkle.js';
import { openCheckpoint } from '../../../src/domain/log/open-checkpoint.js';
import { rootPlan } from '../../../src/domain/log/proof-plans.js';
import { expandTile, hashInTile } from '../../../src/domain/log/tile-hashes.js';
import { locateNode, partialTiles, tileKey } from '../../../src/domain/log/tiles.js';
import { verifyConsistency, verifyInclusion } from '../../../src/domain/log/verify-proofs.js';
import { aLog, ed, right } from '../../support/log-app.js';
import { hex, leafData, ReferenceTree, sha } from '../../support/log.js';

const SIZE = 70_000;
const log = aLog({ maxLeaves: 20_000 });
const reference = ReferenceTree.ofSize(SIZE);
const sizes = [1, 255, 256, 257, 1000, 65_536, SIZE];
const notes = new Map<number, string>();

test.before('a log published at several sizes', async () => {
  let sequenced = 0;
  for (const size of sizes) {
    log.sequence(sequenced, size);
    sequenced = size;
    for (;;) {
      const step = right(await log.advance.execute());
      if (step.checkpoint.size === size) break;
    }
    notes.set(size, (await log.checkpoints.latest())!.note);
  }
  log.sequence(SIZE, SIZE + 10); // sequenced, not yet in a checkpoint
});

test('every checkpoint opens with the log key and names the reference root of its size', (t) => {
  for (const size of sizes) {
    const cp = right(openCheckpoint(ed, notes.get(size)!, log.vkey));
    t.is(cp.size, size);
    t.is(hex(cp.rootHash), hex(reference.mth(0, size)), `size ${size}`);
  }
});

test('inclusion against the latest checkpoint: the answer checks on its own with the vkey', async (t) => {
  for (const i of [0, 1, 255, 256, 4242, 65_535, 65_536, SIZE - 1]) {
    const answer = right(await log.proveInclusion.execute({ leaf: leafData(i) }));
    t.is(answer.logIndex, i);
    t.is(answer.treeSize, SIZE);
    const cp = right(openCheckpoint(ed, answer.checkpoint!, log.vkey));
    t.true(E.isRight(verifyInclusion(sha, { leafIndex: i, treeSize: cp.size, leafHash: answer.leafHash, hashes: answer.hashes }, cp.rootHash)), `leaf ${i}`);
    t.deepEqual(answer.hashes.map(hex), reference.path(i, 0, SIZE).map(hex));
  }
});

test('inclusion at an earlier published size, without the checkpoint', async (t) => {
  const answer = right(await log.proveInclusion.execute({ leaf: leafData(300), treeSize: 1000 }));
  t.is(answer.checkpoint, undefined);
  t.true(E.isRight(verifyInclusion(sha, { leafIndex: 300, treeSize: 1000, leafHash: answer.leafHash, hashes: answer.hashes }, reference.mth(0, 1000))));
});

test('a leaf not yet in a checkpoint, or never sequenced, is not in the log; other sizes are out of range', async (t) => {
  t.deepEqual(await log.proveInclusion.execute({ leaf: leafData(SIZE + 1) }), E.left({ _tag: 'NotInLog' }));
  t.deepEqual(await log.proveInclusion.execute({ leaf: leafData(10 ** 9) }), E.left({ _tag: 'NotInLog' }));
  for (const treeSize of [300, 299, SIZE + 1, 0, 1.5]) {
    t.like(await log.proveInclusion.execute({ leaf: leafData(300), treeSize }), { left: { _tag: 'TreeSizeOutOfRange' } }, String(treeSize));
  }
});

test('consistency between any two published sizes verifies against both checkpoints', async (t) => {
  for (const [a, b] of [
    [1, SIZE],
    [255, 256],
    [256, 257],
    [257, 65_536],
    [1000, 1000],
    [65_536, SIZE],
  ] as const) {
    const answer = right(await log.proveConsistency.execute({ first: a, second: b }));
    const [first, second] = [a, b].map((s) => right(openCheckpoint(ed, notes.get(s)!, log.vkey)).rootHash) as [Uint8Array, Uint8Array];
    t.true(E.isRight(verifyConsistency(sha, { first: a, second: b, hashes: answer.hashes }, first, second)), `${a} → ${b}`);
  }
  for (const [first, second] of [
    [0, 5],
    [6, 5],
    [1, SIZE + 1],
    [-1, 3],
  ]) {
    t.like(await log.proveConsistency.execute({ first: first!, second: second! }), { left: { _tag: 'TreeSizeOutOfRange' } });
  }
});

test('the published tiles rebuild the checkpoint root, and the entry bundles hold the leaves', async (t) => {
  const tiles = new Map<string, Uint8Array>();
  for (const p of partialTiles(SIZE)) tiles.set(tileKey(p), right(await log.readTile.execute(p)).bytes);
  const nodes = rootPlan(SIZE);
  const root = foldFromRight(
    sha,
    nodes.map((n) => {
      const where = locateNode(n);
      return hashInTile(expandTile(sha, tiles.get(tileKey(where.tile))!), where);
    }),
  );
  t.is(hex(root), hex(reference.mth()));

  const full = right(await log.readTile.execute({ level: 0, index: 3, width: 256 }));
  t.true(full.immutable);
  t.is(hex(full.bytes.subarray(32, 64)), hex(reference.leaves[3 * 256 + 1]!));
  const partial = right(await log.readTile.execute({ level: 0, index: 3, width: 5 }));
  t.false(partial.immutable);
  t.deepEqual(partial.bytes, full.bytes.subarray(0, 160));

  const bundle = right(await log.readEntryBundle.execute({ index: 273, width: 112 }));
  t.deepEqual(
    decodeEntryBundle(bundle.bytes),
    Array.from({ length: 112 }, (_, i) => leafData(273 * 256 + i)),
  );
});

test('tiles and bundles beyond the latest checkpoint are not served', async (t) => {
  for (const tile of [
    { level: 0, index: 273, width: 113 },
    { level: 0, index: 273, width: 256 },
    { level: 0, index: 274, width: 1 },
    { level: 1, index: 1, width: 18 },
    { level: 3, index: 0, width: 1 },
  ]) {
    t.deepEqual(await log.readTile.execute(tile), E.left({ _tag: 'TileNotFound' }), JSON.stringify(tile));
  }
  t.deepEqual(await log.readEntryBundle.execute({ index: 273, width: 113 }), E.left({ _tag: 'TileNotFound' }));
});
