import * as E from 'fp-ts/lib/Either.js';
import { NodeEd25519 } from '../../src/adapters/crypto/node-ed25519.js';
import { SeedCheckpointSigner } from '../../src/adapters/crypto/seed-checkpoint-signer.js';
import { MemoryCheckpointStore } from '../../src/adapters/memory/memory-checkpoint-store.js';
import { MemoryLogTileStore } from '../../src/adapters/memory/memory-log-tile-store.js';
import { MemorySequencedLeaves } from '../../src/adapters/memory/memory-sequenced-leaves.js';
import { AdvanceLog } from '../../src/application/log/advance-log.js';
import { GetLogKey } from '../../src/application/log/get-log-key.js';
import { IntegrateLeaves } from '../../src/application/log/integrate-leaves.js';
import { LogTree } from '../../src/application/log/log-tree.js';
import { ProveConsistency } from '../../src/application/log/prove-consistency.js';
import { ProveInclusion } from '../../src/application/log/prove-inclusion.js';
import { PublishCheckpoint } from '../../src/application/log/publish-checkpoint.js';
import { ReadEntryBundle } from '../../src/application/log/read-entry-bundle.js';
import { ReadTile } from '../../src/application/log/read-tile.js';
import type { CheckpointStore } from '../../src/application/ports/checkpoint-store.js';
import type { LogTileStore } from '../../src/application/ports/log-tile-store.js';
import { parseVerifierKey, type VerifierKey } from '../../src/domain/log/verifier-key.js';
import { leafData, sha } from './log.js';

export const ORIGIN = 'registry.example/proof-registry';
export const ed = new NodeEd25519();

export interface LogOptions {
  readonly tiles?: LogTileStore;
  readonly checkpoints?: CheckpointStore;
  readonly leaves?: MemorySequencedLeaves;
  readonly maxLeaves?: number;
  readonly cachedTiles?: number;
  readonly nowMs?: () => number;
}

/** The whole log on in-memory adapters, as the service will compose it; pass stores to "restart" on them. */
export function aLog(options: LogOptions = {}) {
  const tiles = options.tiles ?? new MemoryLogTileStore();
  const checkpoints = options.checkpoints ?? new MemoryCheckpointStore();
  const leaves = options.leaves ?? new MemorySequencedLeaves();
  const signer = new SeedCheckpointSigner(ed, new Uint8Array(32).fill(42), ORIGIN);
  const tree = new LogTree(tiles, sha, { cachedTiles: options.cachedTiles ?? 64 });
  const clock = { nowMs: options.nowMs ?? (() => 1_790_000_000_000) };
  const integrate = new IntegrateLeaves(tiles, leaves, sha, options.maxLeaves);
  const publish = new PublishCheckpoint(tiles, tree, checkpoints, signer, sha, clock, ORIGIN);
  const key = new GetLogKey(signer, sha, ORIGIN).execute();
  const vkey = E.getOrElseW(() => {
    throw new Error('the log key has no vkey');
  })(parseVerifierKey(sha, key.vkey)) as VerifierKey;
  return {
    tiles,
    checkpoints,
    leaves,
    signer,
    tree,
    key,
    vkey,
    integrate,
    publish,
    advance: new AdvanceLog(integrate, publish),
    proveInclusion: new ProveInclusion(leaves, checkpoints, tree, sha),
    proveConsistency: new ProveConsistency(checkpoints, tree),
    readTile: new ReadTile(checkpoints, tree),
    readEntryBundle: new ReadEntryBundle(checkpoints, leaves),
    /** Sequences leaves `from` … `to − 1` (leafData). */
    sequence(from: number, to: number): void {
      for (let i = from; i < to; i++) leaves.append(leafData(i));
    },
  };
}

export function right<A>(result: E.Either<unknown, A>): A {
  if (E.isLeft(result)) throw new Error(`expected a result, got ${JSON.stringify(result.left)}`);
  return result.right;
}
