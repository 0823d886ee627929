import type { SequencedLeaves } from '../../application/ports/sequenced-leaves.js';
import { bytesToHex } from '../../domain/protocol/encoding.js';

/**
 * In-memory sequencer: `append` gives each distinct leaf the next index, once; the same
 * data again keeps its first index (as a proof stored again, from any wallet, adds no leaf).
 */
export class MemorySequencedLeaves implements SequencedLeaves {
  private readonly data: Uint8Array[] = [];
  private readonly indexes = new Map<string, number>();

  /** Sequences `leaf` if it is new; its index either way. */
  append(leaf: Uint8Array): number {
    const key = bytesToHex(leaf);
    const known = this.indexes.get(key);
    if (known !== undefined) return known;
    this.data.push(leaf.slice());
    this.indexes.set(key, this.data.length - 1);
    return this.data.length - 1;
  }

  async count(): Promise<number> {
    return this.data.length;
  }

  async read(start: number, end: number): Promise<Uint8Array[]> {
    if (start < 0 || end > this.data.length || start > end) throw new RangeError(`leaves ${start}–${end - 1} of ${this.data.length}`);
    return this.data.slice(start, end).map((d) => d.slice());
  }

  async indexOf(leaf: Uint8Array): Promise<number | null> {
    return this.indexes.get(bytesToHex(leaf)) ?? null;
  }
}
