import * as E from 'fp-ts/lib/Either.js';
import { leafHash } from '../../domain/log/merkle.js';
import type { Sha256 } from '../../domain/log/sha256.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';
import type { SequencedLeaves } from '../ports/sequenced-leaves.js';
import type { LogQueryFailure } from './log-failures.js';
import type { LogTree } from './log-tree.js';

export interface InclusionQuery {
  /** The leaf data: the 32 bytes of the proof's payload_hash. */
  readonly leaf: Uint8Array;
  /** A published tree size to prove against; the latest checkpoint's when absent. */
  readonly treeSize?: number;
}

export interface InclusionAnswer {
  readonly logIndex: number;
  readonly treeSize: number;
  readonly leafHash: Uint8Array;
  readonly hashes: Uint8Array[];
  /** The signed note of the latest checkpoint, when the proof is against it. */
  readonly checkpoint?: string;
}

/**
 * The audit path of a leaf, against the latest checkpoint (with its signed note, so the
 * answer checks on its own) or a tree size the caller already trusts. A leaf that is not
 * under the latest checkpoint is not in the log yet, whatever index it has been given.
 */
export class ProveInclusion {
  constructor(
    private readonly leaves: SequencedLeaves,
    private readonly checkpoints: CheckpointStore,
    private readonly tree: LogTree,
    private readonly sha: Sha256,
  ) {}

  async execute(query: InclusionQuery): Promise<E.Either<LogQueryFailure, InclusionAnswer>> {
    const [latest, logIndex] = await Promise.all([this.checkpoints.latest(), this.leaves.indexOf(query.leaf)]);
    if (!latest || logIndex === null || logIndex >= latest.size) return E.left({ _tag: 'NotInLog' });
    const treeSize = query.treeSize ?? latest.size;
    if (!Number.isSafeInteger(treeSize) || treeSize <= logIndex || treeSize > latest.size) {
      return E.left({ _tag: 'TreeSizeOutOfRange', detail: `tree_size must be greater than the log index ${logIndex} and at most ${latest.size}` });
    }
    const hashes = await this.tree.inclusion(logIndex, treeSize);
    const answer = { logIndex, treeSize, leafHash: leafHash(this.sha, query.leaf), hashes };
    return E.right(query.treeSize === undefined ? { ...answer, checkpoint: latest.note } : answer);
  }
}
