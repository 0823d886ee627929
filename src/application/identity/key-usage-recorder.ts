import type { KeyStore, KeyUsageDelta } from '../ports/key-store.js';

/**
 * Counts every response to a request made with an API key (status ≥ 400 is an error) and
 * writes the counts in batches: one UPDATE per key per flush instead of one per request. The
 * owner flushes it on a timer, before listing keys, and on shutdown.
 */
export class KeyUsageRecorder {
  private pending = new Map<string, { requests: number; errors: number; lastUsedAtMs: number }>();
  private flushing: Promise<void> = Promise.resolve();

  constructor(private readonly keys: Pick<KeyStore, 'addUsage'>) {}

  record(keyId: string, status: number, atMs: number): void {
    this.add({ keyId, requests: 1, errors: status >= 400 ? 1 : 0, lastUsedAtMs: atMs });
  }

  private add(d: KeyUsageDelta): void {
    const entry = this.pending.get(d.keyId) ?? { requests: 0, errors: 0, lastUsedAtMs: d.lastUsedAtMs };
    entry.requests += d.requests;
    entry.errors += d.errors;
    entry.lastUsedAtMs = Math.max(entry.lastUsedAtMs, d.lastUsedAtMs);
    this.pending.set(d.keyId, entry);
  }

  /** Writes what was counted so far; flushes run one after another, never interleaved. */
  flush(): Promise<void> {
    const run = this.flushing.then(() => this.write());
    this.flushing = run.catch(() => undefined);
    return run;
  }

  private async write(): Promise<void> {
    if (this.pending.size === 0) return;
    const batch = this.pending;
    this.pending = new Map();
    const deltas: KeyUsageDelta[] = [...batch].map(([keyId, d]) => ({ keyId, ...d }));
    try {
      await this.keys.addUsage(deltas);
    } catch (err) {
      // Keep the counts for the next flush rather than lose them.
      for (const d of deltas) this.add(d);
      throw err;
    }
  }
}
