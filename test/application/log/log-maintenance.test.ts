import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryCheckpointStore } from '../../../src/adapters/memory/memory-checkpoint-store.js';
import { MemoryLogTileStore } from '../../../src/adapters/memory/memory-log-tile-store.js';
import type { LogTileStore } from '../../../src/application/ports/log-tile-store.js';
import { openCheckpoint } from '../../../src/domain/log/open-checkpoint.js';
import { verifyConsistency } from '../../../src/domain/log/verify-proofs.js';
import { AdvanceLog } from '../../../src/application/log/advance-log.js';
import { aLog, ed, right } from '../../support/log-app.js';
import { hex, ReferenceTree, sha } from '../../support/log.js';

test('a log with nothing in it publishes the empty tree, then nothing new until it grows', async (t) => {
  const log = aLog();
  const first = right(await log.advance.execute());
  t.true(first.published);
  t.is(first.checkpoint.size, 0);
  t.is(hex(first.checkpoint.rootHash), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  const again = right(await log.advance.execute());
  t.false(again.published);
  t.deepEqual(again.checkpoint, first.checkpoint);
  log.sequence(0, 3);
  t.is(right(await log.advance.execute()).checkpoint.size, 3);
});

test('a backlog is integrated in bounded steps, and the tree is the reference tree', async (t) => {
  const log = aLog({ maxLeaves: 100 });
  log.sequence(0, 1234);
  const steps: number[] = [];
  for (;;) {
    const step = right(await log.integrate.execute());
    if (step.toSize === step.fromSize) break;
    steps.push(step.toSize - step.fromSize);
  }
  t.is(steps.length, 13);
  t.true(steps.every((n) => n <= 100));
  t.is(await log.tiles.integratedSize(), 1234);
  t.is(hex(await log.tree.root(1234)), hex(ReferenceTree.ofSize(1234).mth()));
});

test('two integrators racing: one moves the log, the other is told, and the tree stays right', async (t) => {
  const tiles = new MemoryLogTileStore();
  const a = aLog({ tiles });
  const b = aLog({ tiles, leaves: a.leaves });
  a.sequence(0, 700);
  const [ra, rb] = await Promise.all([a.integrate.execute(), b.integrate.execute()]);
  t.is([ra, rb].filter(E.isLeft).length, 1);
  t.like(E.isLeft(ra) ? ra : rb, { left: { _tag: 'IntegrationRaced', fromSize: 0 } });
  t.is(hex(await a.tree.root(700)), hex(ReferenceTree.ofSize(700).mth()));
});

test('after a restart on the same stores, the log goes on: earlier roots unchanged, sizes growing', async (t) => {
  const tiles = new MemoryLogTileStore();
  const checkpoints = new MemoryCheckpointStore();
  const before = aLog({ tiles, checkpoints });
  before.sequence(0, 600);
  const old = right(await before.advance.execute()).checkpoint;

  const after = aLog({ tiles, checkpoints, leaves: before.leaves });
  t.deepEqual(right(await after.advance.execute()).checkpoint, old);
  after.sequence(600, 1500);
  const next = right(await after.advance.execute()).checkpoint;
  t.is(next.size, 1500);
  t.is(hex(await after.tree.root(600)), hex(old.rootHash));
  const proof = right(await after.proveConsistency.execute({ first: 600, second: 1500 }));
  const [o, n] = [old, next].map((c) => right(openCheckpoint(ed, c.note, after.vkey)));
  t.true(E.isRight(verifyConsistency(sha, { first: 600, second: 1500, hashes: proof.hashes }, o!.rootHash, n!.rootHash)));
});

/** Damages one stored tile, as a bad disk or a bad restore could: one bit of its first hash. */
async function damage(tiles: LogTileStore, level: number, index: number): Promise<void> {
  const [row] = await tiles.readTiles([{ level, index }]);
  row![0]! ^= 1;
  const size = await tiles.integratedSize();
  if (!(await tiles.integrate(size, size, [{ level, index, hashes: row! }]))) throw new Error('could not damage the tile');
}

// The check reads what the new root is built from: the upper tiles (which fix every full leaf
// tile below them) and the right edge. A changed leaf tile under them fails its inclusion proofs.
for (const [level, index, what] of [
  [1, 0, 'an upper tile'],
  [0, 2, 'the partial tile of the right edge'],
] as const) {
  test(`a stored tree that no longer matches the published checkpoint is never signed: ${what} changed`, async (t) => {
    const log = aLog({ cachedTiles: 0 });
    log.sequence(0, 600);
    const published = right(await log.advance.execute()).checkpoint;
    let signatures = 0;
    const sign = log.signer.sign.bind(log.signer);
    log.signer.sign = async (m) => (signatures++, sign(m));

    await damage(log.tiles, level, index);
    log.sequence(600, 700);
    t.deepEqual(await log.advance.execute(), E.left({ _tag: 'InconsistentWithPublished', checkpointSize: 600, treeSize: 700 }));
    t.is(signatures, 0);
    t.deepEqual(await log.checkpoints.latest(), published);
  });
}

test('a stored tree behind the published checkpoint (an old backup) is never signed', async (t) => {
  const checkpoints = new MemoryCheckpointStore();
  const log = aLog({ checkpoints });
  log.sequence(0, 50);
  right(await log.advance.execute());
  const restored = aLog({ checkpoints, leaves: log.leaves, maxLeaves: 10 });
  t.deepEqual(await restored.publish.execute(), E.left({ _tag: 'TreeBehindCheckpoint', treeSize: 0, checkpointSize: 50 }));
  t.is((await checkpoints.latest())!.size, 50);
});

test('where commits are not synced by themselves, what was integrated is made durable before it is signed', async (t) => {
  const log = aLog();
  const calls: string[] = [];
  const publish = { execute: async () => (calls.push(`publish ${await log.tiles.integratedSize()}`), log.publish.execute()) } as typeof log.publish;
  const advance = new AdvanceLog(log.integrate, publish, 16, async () => void calls.push(`durable ${await log.tiles.integratedSize()}`));
  log.sequence(0, 5);
  right(await advance.execute());
  t.deepEqual(calls, ['durable 5', 'publish 5']);
  right(await advance.execute());
  t.deepEqual(calls.slice(2), ['publish 5'], 'nothing new integrated: nothing to make durable');
});
