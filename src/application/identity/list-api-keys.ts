import * as E from 'fp-ts/lib/Either.js';
import type { ApiKeyRecord, KeyStore } from '../ports/key-store.js';

/** A key's place in the list order: oldest first, then by key id. */
export interface KeyPosition {
  readonly createdAtMs: number;
  readonly keyId: string;
}

export interface KeyPage {
  readonly items: readonly ApiKeyRecord[];
  /** Where the next page starts, or null when this page is the last. */
  readonly next: KeyPosition | null;
}

/**
 * The wallet's keys with their usage figures, brought up to date first, a page at a time.
 * A page continues after a position, not at an offset, so a key deleted between pages never
 * makes the next one skip another. (A wallet has at most a hundred keys, so a page is cut
 * from the whole list.)
 */
export class ListApiKeys {
  constructor(
    private readonly keys: KeyStore,
    private readonly pendingUsage: { flush(): Promise<void> },
  ) {}

  async execute(input: { wallet: string; limit?: number; after?: KeyPosition }): Promise<E.Either<never, KeyPage>> {
    await this.pendingUsage.flush();
    const all = await this.keys.listByWallet(input.wallet);
    const after = input.after;
    const rest = after ? all.filter((k) => k.createdAtMs > after.createdAtMs || (k.createdAtMs === after.createdAtMs && k.keyId > after.keyId)) : all;
    const limit = input.limit ?? rest.length;
    const items = rest.slice(0, limit);
    const last = items[items.length - 1];
    return E.right({ items, next: rest.length > limit && last ? { createdAtMs: last.createdAtMs, keyId: last.keyId } : null });
  }
}
