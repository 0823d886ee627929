import * as E from 'fp-ts/lib/Either.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';
import type { LogQueryFailure } from './log-failures.js';
import type { LogTree } from './log-tree.js';

export interface ConsistencyAnswer {
  readonly first: number;
  readonly second: number;
  readonly hashes: Uint8Array[];
}

/** The proof that the tree of `second` leaves extends the tree of `first`: 0 < first ≤ second ≤ the latest size. */
export class ProveConsistency {
  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly tree: LogTree,
  ) {}

  async execute(query: { first: number; second: number }): Promise<E.Either<LogQueryFailure, ConsistencyAnswer>> {
    const { first, second } = query;
    const latest = (await this.checkpoints.latest())?.size ?? 0;
    if (!Number.isSafeInteger(first) || !Number.isSafeInteger(second) || first <= 0 || first > second || second > latest) {
      return E.left({ _tag: 'TreeSizeOutOfRange', detail: `need 0 < first ≤ second ≤ ${latest}, the latest tree size` });
    }
    return E.right({ first, second, hashes: await this.tree.consistency(first, second) });
  }
}
