import type { CheckpointStore, PublishedCheckpoint } from '../ports/checkpoint-store.js';
import type { LogCosignatures } from '../ports/log-cosignatures.js';

/**
 * The checkpoints as served: each one's signed note with the cosignature lines its witnesses
 * returned appended after the log's signature (signed-note: a verifier ignores lines of keys it
 * does not know). What GET /v1/log/checkpoint, inclusion proofs and proof bundles carry.
 */
export class CosignedCheckpoints implements CheckpointStore {
  constructor(
    private readonly checkpoints: CheckpointStore,
    private readonly cosignatures: LogCosignatures,
  ) {}

  async latest(): Promise<PublishedCheckpoint | null> {
    return this.withCosignatures(await this.checkpoints.latest());
  }

  async atSize(size: number): Promise<PublishedCheckpoint | null> {
    return this.withCosignatures(await this.checkpoints.atSize(size));
  }

  publish(checkpoint: PublishedCheckpoint): Promise<boolean> {
    return this.checkpoints.publish(checkpoint);
  }

  private async withCosignatures(checkpoint: PublishedCheckpoint | null): Promise<PublishedCheckpoint | null> {
    if (!checkpoint) return null;
    const lines = await this.cosignatures.linesAt(checkpoint.size);
    return lines.length === 0 ? checkpoint : { ...checkpoint, note: checkpoint.note + lines.join('') };
  }
}
