import type { CheckpointStore, PublishedCheckpoint } from '../../application/ports/checkpoint-store.js';

/** In-memory CheckpointStore: the latest checkpoint, replaced only by a larger one; every one kept. */
export class MemoryCheckpointStore implements CheckpointStore {
  private current: PublishedCheckpoint | null = null;
  private readonly bySize = new Map<number, PublishedCheckpoint>();

  async latest(): Promise<PublishedCheckpoint | null> {
    return this.current && { ...this.current, rootHash: this.current.rootHash.slice() };
  }

  async publish(checkpoint: PublishedCheckpoint): Promise<boolean> {
    if (this.current && checkpoint.size <= this.current.size) return false;
    this.current = { ...checkpoint, rootHash: checkpoint.rootHash.slice() };
    this.bySize.set(checkpoint.size, this.current);
    return true;
  }

  async atSize(size: number): Promise<PublishedCheckpoint | null> {
    const found = this.bySize.get(size);
    return found ? { ...found, rootHash: found.rootHash.slice() } : null;
  }
}
