import type { Clock } from '../ports/clock.js';
import type { ApiKeyRecord, KeyChange, KeyStore, KeyUsageDelta } from '../ports/key-store.js';

interface Entry {
  readonly record: ApiKeyRecord;
  readonly expiresAtMs: number;
}

export interface KeyLookupCacheOptions {
  /** How long a found key is served from memory; 0 turns the cache off. */
  readonly ttlMs: number;
  /** Most keys kept; the oldest entry goes first. */
  readonly maxEntries?: number;
}

/**
 * Keeps the keys that authenticated recently in memory for a few seconds, so a busy key is
 * not looked up in the database on every request (on SQLite that lookup was the slowest step
 * of a submission). Only keys that exist are kept: a key created anywhere works at once.
 * A key deleted, disabled or renamed through this instance is dropped at once; one changed
 * through another instance is seen here within `ttlMs` (API_KEY_CACHE_TTL_S). Concurrent lookups of one key share one query.
 */
export class KeyLookupCache implements KeyStore {
  private readonly entries = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<ApiKeyRecord | null>>();
  private readonly maxEntries: number;

  constructor(
    private readonly inner: KeyStore,
    private readonly clock: Clock,
    private readonly options: KeyLookupCacheOptions,
  ) {
    this.maxEntries = options.maxEntries ?? 10_000;
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    if (this.options.ttlMs <= 0) return this.inner.findByHash(keyHash);
    const cached = this.entries.get(keyHash);
    if (cached && cached.expiresAtMs > this.clock.nowMs()) return cached.record;
    const inFlight = this.pending.get(keyHash);
    if (inFlight) return inFlight;
    const lookup = this.inner.findByHash(keyHash).then(
      (record) => {
        this.pending.delete(keyHash);
        this.entries.delete(keyHash);
        if (record) this.remember(keyHash, record);
        return record;
      },
      (err: unknown) => {
        this.pending.delete(keyHash);
        throw err;
      },
    );
    this.pending.set(keyHash, lookup);
    return lookup;
  }

  async delete(wallet: string, keyId: string, atMs: number): Promise<boolean> {
    // Dropped before and after: a lookup racing the delete must not put the key back.
    this.forget(keyId);
    const deleted = await this.inner.delete(wallet, keyId, atMs);
    this.forget(keyId);
    return deleted;
  }

  async update(wallet: string, keyId: string, change: KeyChange, atMs: number): Promise<ApiKeyRecord | null> {
    this.forget(keyId);
    const updated = await this.inner.update(wallet, keyId, change, atMs);
    this.forget(keyId);
    return updated;
  }

  create(record: ApiKeyRecord): Promise<void> {
    return this.inner.create(record);
  }

  listByWallet(wallet: string): Promise<ApiKeyRecord[]> {
    return this.inner.listByWallet(wallet);
  }

  countByWallet(wallet: string): Promise<number> {
    return this.inner.countByWallet(wallet);
  }

  addUsage(deltas: readonly KeyUsageDelta[]): Promise<void> {
    return this.inner.addUsage(deltas);
  }

  private remember(keyHash: string, record: ApiKeyRecord): void {
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(keyHash, { record, expiresAtMs: this.clock.nowMs() + this.options.ttlMs });
  }

  private forget(keyId: string): void {
    for (const [hash, entry] of this.entries) if (entry.record.keyId === keyId) this.entries.delete(hash);
    // A lookup already on its way may still answer with the key; it must not be cached.
    for (const [hash, lookup] of this.pending) {
      this.pending.delete(hash);
      void lookup.then(
        (record) => {
          if (record?.keyId === keyId) this.entries.delete(hash);
        },
        () => undefined,
      );
    }
  }
}
