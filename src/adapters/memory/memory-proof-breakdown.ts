import type { BreakdownKey, ProofBreakdownReader, ProofShare } from '../../application/ports/proof-breakdown.js';
import type { ProofCursor, ProofStore } from '../../application/ports/proof-store.js';

const bytewise = (a: string, b: string) => Buffer.compare(Buffer.from(a), Buffer.from(b));

/** ProofBreakdownReader over any ProofStore, by paging through the window: exact, for tests and embedding. */
export class MemoryProofBreakdown implements ProofBreakdownReader {
  constructor(private readonly proofs: ProofStore) {}

  async top(wallet: string, by: BreakdownKey, fromMs: number, toMs: number, limit: number): Promise<readonly ProofShare[]> {
    const counts = new Map<string, number>();
    let after: ProofCursor | undefined;
    do {
      const page = await this.proofs.search(wallet, { order: 'asc', limit: 200, createdAfterMs: fromMs, createdBeforeMs: toMs, ...(after ? { after } : {}) });
      for (const p of page.items) {
        const id = by === 'robot' ? p.robotId : p.taskId;
        if (id !== null) counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      after = page.next ?? undefined;
    } while (after);
    return [...counts]
      .map(([id, proofs]) => ({ id, proofs }))
      .sort((a, b) => b.proofs - a.proofs || bytewise(a.id, b.id))
      .slice(0, limit);
  }
}
