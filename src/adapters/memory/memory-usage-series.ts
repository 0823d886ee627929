import type { ProofCursor, ProofStore } from '../../application/ports/proof-store.js';
import type {
  HourRejections,
  KeyDayUsage,
  KeyEndpointDayUsage,
  KeyUsageHistory,
  ProofBucket,
  ProofRejectionLog,
  ProofSeriesReader,
} from '../../application/ports/usage-series.js';

/** In-memory KeyUsageHistory; runs the same contract suite as the SQL one. */
export class MemoryKeyUsageHistory implements KeyUsageHistory {
  private readonly rows = new Map<string, KeyDayUsage>();
  private readonly byEndpoint = new Map<string, KeyEndpointDayUsage>();

  async addByEndpoint(rows: readonly KeyEndpointDayUsage[]): Promise<void> {
    for (const r of rows) {
      const key = `${r.keyId} ${r.dayMs} ${r.endpoint}`;
      const seen = this.byEndpoint.get(key);
      this.byEndpoint.set(key, seen ? { ...seen, requests: seen.requests + r.requests, errors: seen.errors + r.errors } : { ...r });
    }
  }

  async endpointDays(keyId: string, fromDayMs: number, toDayMs: number): Promise<readonly KeyEndpointDayUsage[]> {
    return [...this.byEndpoint.values()]
      .filter((r) => r.keyId === keyId && r.dayMs >= fromDayMs && r.dayMs < toDayMs)
      .sort((a, b) => a.dayMs - b.dayMs || (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0));
  }

  async add(rows: readonly KeyDayUsage[]): Promise<void> {
    for (const r of rows) {
      const key = `${r.keyId} ${r.dayMs}`;
      const seen = this.rows.get(key);
      this.rows.set(key, seen ? { ...seen, requests: seen.requests + r.requests, errors: seen.errors + r.errors } : { ...r });
    }
  }

  async days(keyId: string, fromDayMs: number, toDayMs: number): Promise<readonly KeyDayUsage[]> {
    return [...this.rows.values()].filter((r) => r.keyId === keyId && r.dayMs >= fromDayMs && r.dayMs < toDayMs).sort((a, b) => a.dayMs - b.dayMs);
  }
}

/** In-memory ProofRejectionLog. */
export class MemoryProofRejectionLog implements ProofRejectionLog {
  private readonly rows = new Map<string, HourRejections>();

  async add(rows: readonly HourRejections[]): Promise<void> {
    for (const r of rows) {
      const key = `${r.wallet} ${r.hourMs}`;
      const seen = this.rows.get(key);
      this.rows.set(key, { ...r, count: (seen?.count ?? 0) + r.count });
    }
  }

  async hours(wallet: string, fromMs: number, toMs: number): Promise<readonly HourRejections[]> {
    return [...this.rows.values()].filter((r) => r.wallet === wallet && r.hourMs >= fromMs && r.hourMs < toMs).sort((a, b) => a.hourMs - b.hourMs);
  }
}

/** ProofSeriesReader over any ProofStore, by paging through the window: exact, for tests and embedding. */
export class MemoryProofSeries implements ProofSeriesReader {
  constructor(private readonly proofs: ProofStore) {}

  async buckets(wallet: string, bucketMs: number, fromMs: number, toMs: number): Promise<readonly ProofBucket[]> {
    const found = new Map<number, { proofs: number; robots: Set<string> }>();
    let after: ProofCursor | undefined;
    do {
      const page = await this.proofs.search(wallet, { order: 'asc', limit: 200, createdAfterMs: fromMs, createdBeforeMs: toMs, ...(after ? { after } : {}) });
      for (const p of page.items) {
        const start = fromMs + Math.floor((p.createdAtMs - fromMs) / bucketMs) * bucketMs;
        const entry = found.get(start) ?? { proofs: 0, robots: new Set<string>() };
        entry.proofs++;
        if (p.robotId !== null) entry.robots.add(p.robotId);
        found.set(start, entry);
      }
      after = page.next ?? undefined;
    } while (after);
    return [...found].sort(([a], [b]) => a - b).map(([startMs, e]) => ({ startMs, proofs: e.proofs, devices: e.robots.size }));
  }
}
