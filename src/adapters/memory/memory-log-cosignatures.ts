import type { LogCosignatures, WitnessRecord } from '../../application/ports/log-cosignatures.js';

/** The log's cosignatures and witness states in memory, for tests. */
export class MemoryLogCosignatures implements LogCosignatures {
  private readonly lines = new Map<number, Map<string, string>>();
  private readonly states = new Map<string, WitnessRecord>();

  async record(witness: string, treeSize: number, line: string, atMs: number): Promise<void> {
    const atSize = this.lines.get(treeSize) ?? new Map<string, string>();
    atSize.set(witness, line);
    this.lines.set(treeSize, atSize);
    const previous = this.states.get(witness)?.lastCosignedSize ?? null;
    this.states.set(witness, {
      name: witness,
      lastCosignedSize: previous === null ? treeSize : Math.max(previous, treeSize),
      lastCosignedAtMs: atMs,
      lastError: null,
    });
  }

  async recordError(witness: string, error: string): Promise<void> {
    const state = this.states.get(witness);
    this.states.set(witness, {
      name: witness,
      lastCosignedSize: state?.lastCosignedSize ?? null,
      lastCosignedAtMs: state?.lastCosignedAtMs ?? null,
      lastError: error,
    });
  }

  async linesAt(treeSize: number): Promise<readonly string[]> {
    const atSize = this.lines.get(treeSize);
    return atSize ? [...atSize.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, line]) => line) : [];
  }

  async witnesses(): Promise<readonly WitnessRecord[]> {
    return [...this.states.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }
}
