/**
 * The sequencer's side of the log, as the integrator and the proof routes see it: each
 * distinct proof has a leaf index, 0, 1, 2, … with no gap, assigned when it was stored. The
 * leaf data is the 32 bytes of its payload_hash.
 */
export interface SequencedLeaves {
  /** How many leaves have an index: exactly the indexes 0 … count − 1. */
  count(): Promise<number>;
  /** The data of the leaves with indexes [start, end), in index order (end ≤ count()). */
  read(start: number, end: number): Promise<Uint8Array[]>;
  /** The index of the leaf with this data, or null while it has none. */
  indexOf(data: Uint8Array): Promise<number | null>;
}
