import * as E from 'fp-ts/lib/Either.js';
import type { CheckpointStore, PublishedCheckpoint } from '../ports/checkpoint-store.js';
import type { LogQueryFailure } from './log-failures.js';

/** The latest published checkpoint, the head a client verifies everything else against. */
export class GetCheckpoint {
  constructor(private readonly checkpoints: CheckpointStore) {}

  async execute(): Promise<E.Either<LogQueryFailure, PublishedCheckpoint>> {
    const latest = await this.checkpoints.latest();
    return latest ? E.right(latest) : E.left({ _tag: 'NoCheckpoint' });
  }
}
