import type { ApiKeyRecord, KeyChange, KeyStore, KeyUsageDelta } from '../../application/ports/key-store.js';
import { keyCreated, keyDeleted, keyUpdated } from '../../domain/events/announcements.js';
import { MemoryEventLog } from './memory-event-log.js';

/** In-memory KeyStore for tests and embedding; runs the same contract suite as the SQL store. */
export class MemoryKeyStore implements KeyStore {
  private readonly byId = new Map<string, ApiKeyRecord>();

  /** `events`: where it announces keys created and deleted, as the SQL store does in its transaction. */
  constructor(readonly events: MemoryEventLog = new MemoryEventLog()) {}

  async create(record: ApiKeyRecord): Promise<void> {
    if (this.byId.has(record.keyId) || [...this.byId.values()].some((k) => k.keyHash === record.keyHash)) {
      throw new Error('duplicate API key id or hash');
    }
    this.byId.set(record.keyId, { ...record, lastUsedAtMs: null, requestCount: 0, errorCount: 0 });
    this.events.appendNow([keyCreated(record)]);
  }

  async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    for (const k of this.byId.values()) if (k.keyHash === keyHash) return { ...k };
    return null;
  }

  async listByWallet(wallet: string): Promise<ApiKeyRecord[]> {
    return [...this.byId.values()]
      .filter((k) => k.wallet === wallet)
      .sort((a, b) => a.createdAtMs - b.createdAtMs || (a.keyId < b.keyId ? -1 : 1))
      .map((k) => ({ ...k }));
  }

  async countByWallet(wallet: string): Promise<number> {
    return [...this.byId.values()].filter((k) => k.wallet === wallet).length;
  }

  async delete(wallet: string, keyId: string, atMs: number): Promise<boolean> {
    const found = this.byId.get(keyId);
    if (!found || found.wallet !== wallet) return false;
    this.byId.delete(keyId);
    this.events.appendNow([keyDeleted(found, atMs)]);
    return true;
  }

  async update(wallet: string, keyId: string, change: KeyChange, atMs: number): Promise<ApiKeyRecord | null> {
    const before = this.byId.get(keyId);
    if (!before || before.wallet !== wallet) return null;
    const after: ApiKeyRecord = {
      ...before,
      name: change.name ?? before.name,
      disabledAtMs: change.enabled === undefined ? before.disabledAtMs : change.enabled ? null : (before.disabledAtMs ?? atMs),
    };
    const event = keyUpdated(before, after, atMs);
    if (event === null) return { ...after };
    this.byId.set(keyId, after);
    this.events.appendNow([event]);
    return { ...after };
  }

  async addUsage(deltas: readonly KeyUsageDelta[]): Promise<void> {
    for (const d of deltas) {
      const k = this.byId.get(d.keyId);
      if (!k) continue;
      this.byId.set(d.keyId, {
        ...k,
        requestCount: k.requestCount + d.requests,
        errorCount: k.errorCount + d.errors,
        lastUsedAtMs: k.lastUsedAtMs === null ? d.lastUsedAtMs : Math.max(k.lastUsedAtMs, d.lastUsedAtMs),
      });
    }
  }
}
