/** A checkpoint the log has signed and shown: its size, its root and its signed note. */
export interface PublishedCheckpoint {
  readonly size: number;
  readonly rootHash: Uint8Array;
  /** The C2SP signed note, exactly as served. */
  readonly note: string;
  readonly publishedAtMs: number;
}

/**
 * The log's latest published checkpoint. Published sizes never shrink: the store takes a
 * checkpoint only if it is larger than the latest, atomically, so two publishers racing
 * cannot move the log backwards.
 */
export interface CheckpointStore {
  latest(): Promise<PublishedCheckpoint | null>;
  /** The checkpoint published for exactly `size` leaves, if one was (every one is kept). */
  atSize(size: number): Promise<PublishedCheckpoint | null>;
  /** Makes `checkpoint` the latest if it is larger than the latest (or the first); false, changing nothing, otherwise. */
  publish(checkpoint: PublishedCheckpoint): Promise<boolean>;
}
