import type { ProofActivity, ProofActivityReader } from '../../application/ports/proof-activity.js';
import type { ProofCursor, ProofStore } from '../../application/ports/proof-store.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';

/**
 * ProofActivityReader over any ProofStore, by paging through it: exact, and fine for the
 * memory store of tests; the SQL adapter answers the same questions with aggregates.
 */
export class MemoryProofActivity implements ProofActivityReader {
  constructor(private readonly proofs: ProofStore) {}

  async activity(wallet: string, sinceMs: readonly number[], untilMs: number): Promise<ProofActivity> {
    let total = 0;
    const since = sinceMs.map(() => 0);
    let first: number | null = null;
    let last: number | null = null;
    let after: ProofCursor | undefined;
    do {
      const page = await this.proofs.search(wallet, { order: 'asc', limit: 200, ...(after ? { after } : {}) });
      for (const p of page.items) {
        total++;
        first ??= p.createdAtMs;
        last = p.createdAtMs;
        sinceMs.forEach((s, i) => (since[i]! += p.createdAtMs >= s && p.createdAtMs <= untilMs ? 1 : 0));
      }
      after = page.next ?? undefined;
    } while (after);
    return { total, since, firstCreatedAtMs: first, lastCreatedAtMs: last };
  }

  async recentScores(wallet: string, limit: number): Promise<readonly number[]> {
    const page = await this.proofs.search(wallet, { order: 'desc', limit });
    const records = await Promise.all(page.items.map((p) => this.proofs.get(wallet, p.proofId)));
    return records.flatMap((r) => (r && r.score !== undefined && r.score !== null ? [r.score] : []));
  }

  async recentEnvelopes(wallet: string, limit: number): Promise<readonly ProofEnvelope[]> {
    const page = await this.proofs.search(wallet, { order: 'desc', limit });
    const records = await Promise.all(page.items.map((p) => this.proofs.get(wallet, p.proofId)));
    return records.flatMap((r) => (r ? [r.envelope] : []));
  }
}
