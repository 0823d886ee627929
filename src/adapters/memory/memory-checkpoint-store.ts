import type { CheckpointStore, PublishedCheckpoint } from '../../application/ports/checkpoint-store.js';

/** In-memory CheckpointStore: the latest checkpoint, replaced only by a larger one. */
export class MemoryCheckpointStore implements CheckpointStore {
  private current: PublishedCheckpoint | null = null;

  async latest(): Promise<PublishedCheckpoint | null> {
    return this.current && { ...this.current, rootHash: this.current.rootHash.slice() };
  }

  async publish(checkpoint: PublishedCheckpoint): Promise<boolean> {
    if (this.current && checkpoint.size <= this.current.size) return false;
    this.current = { ...checkpoint, rootHash: checkpoint.rootHash.slice() };
    return true;
  }
}
