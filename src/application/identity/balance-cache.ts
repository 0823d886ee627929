import { meetsMinimum, type TokenAmount } from '../../domain/identity/token-amount.js';
import type { Clock } from '../ports/clock.js';
import type { IdentityMetrics } from '../ports/identity-metrics.js';
import type { TokenBalance } from '../ports/token-balance.js';

/** A balance as the cache can vouch for it. */
export type BalanceLookup =
  | { readonly _tag: 'Fresh'; readonly amount: TokenAmount }
  /** The source is down; this is the last answer it gave, `ageS` old, still inside the grace period. */
  | { readonly _tag: 'Stale'; readonly amount: TokenAmount; readonly ageS: number }
  | { readonly _tag: 'Unavailable'; readonly retryAfterS: number };

export interface BalanceCacheOptions {
  /** How long an answer is reused without asking the source again. */
  readonly ttlS: number;
  /** How long past the TTL the last answer may still be used while the source is down. */
  readonly graceS: number;
  /** After a failed lookup, how long that wallet waits before the source is asked again. */
  readonly retryBackoffMs?: number;
  /** Bound on remembered wallets (access checks can name any owner). */
  readonly maxEntries?: number;
  /**
   * Reuse only answers of at least this many whole tokens: a lower balance is asked of the
   * source again at the next lookup. For a source that is cheap to ask (the local ledger, a
   * table read), so a wallet refused a moment ago gets in as soon as it is funded.
   */
  readonly reuseFrom?: number;
}

interface Entry {
  readonly amount: TokenAmount;
  readonly fetchedAtMs: number;
}

/**
 * Balances through a cache: answers are reused for the TTL, concurrent lookups of one wallet
 * share one call to the source, and while the source is down the last answer stays usable for
 * a bounded grace period. Past that the answer is Unavailable, never a guess: whether a stale
 * answer may admit anyone is the gate's decision (only a pass is carried over).
 */
export class BalanceCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<TokenAmount>>();
  private readonly failedUntil = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly graceMs: number;
  private readonly backoffMs: number;
  private readonly maxEntries: number;
  private readonly reuseFrom: number | undefined;

  constructor(
    private readonly source: TokenBalance,
    private readonly clock: Clock,
    options: BalanceCacheOptions,
    private readonly metrics: Pick<IdentityMetrics, 'balanceLookup'>,
  ) {
    this.ttlMs = options.ttlS * 1000;
    this.graceMs = options.graceS * 1000;
    this.backoffMs = options.retryBackoffMs ?? 2000;
    this.maxEntries = options.maxEntries ?? 100_000;
    this.reuseFrom = options.reuseFrom;
  }

  async lookup(owner: string, mint: string): Promise<BalanceLookup> {
    const key = `${mint}/${owner}`;
    const now = this.clock.nowMs();
    const entry = this.entries.get(key);
    if (entry && now - entry.fetchedAtMs < this.ttlMs && this.reusable(entry.amount)) {
      this.metrics.balanceLookup('hit');
      return { _tag: 'Fresh', amount: entry.amount };
    }
    // Right after a failure the source is not asked again for a moment, so an outage does not
    // make every request wait for the RPC timeout.
    if ((this.failedUntil.get(key) ?? 0) > now) return this.fallback(key);
    let pending = this.inflight.get(key);
    const shared = pending !== undefined;
    if (!pending) {
      // Removed asynchronously even if the source throws at once, so it is never left behind.
      pending = this.fetch(key, owner, mint).finally(() => this.inflight.delete(key));
      this.inflight.set(key, pending);
    }
    try {
      const amount = await pending;
      this.metrics.balanceLookup(shared ? 'coalesced' : 'miss');
      return { _tag: 'Fresh', amount };
    } catch {
      return this.fallback(key);
    }
  }

  private reusable(amount: TokenAmount): boolean {
    return this.reuseFrom === undefined || meetsMinimum(amount, this.reuseFrom);
  }

  private async fetch(key: string, owner: string, mint: string): Promise<TokenAmount> {
    try {
      const amount = await this.source.balanceOf(owner, mint);
      boundedSet(this.entries, key, { amount, fetchedAtMs: this.clock.nowMs() }, this.maxEntries);
      this.failedUntil.delete(key);
      return amount;
    } catch (err) {
      boundedSet(this.failedUntil, key, this.clock.nowMs() + this.backoffMs, this.maxEntries);
      throw err;
    }
  }

  private fallback(key: string): BalanceLookup {
    const now = this.clock.nowMs();
    const entry = this.entries.get(key);
    if (entry && now - entry.fetchedAtMs < this.ttlMs + this.graceMs) {
      this.metrics.balanceLookup('stale');
      return { _tag: 'Stale', amount: entry.amount, ageS: Math.floor((now - entry.fetchedAtMs) / 1000) };
    }
    this.metrics.balanceLookup('unavailable');
    const waitMs = (this.failedUntil.get(key) ?? now) - now;
    return { _tag: 'Unavailable', retryAfterS: Math.max(1, Math.ceil(waitMs / 1000)) };
  }
}

/** Sets a key in a bounded map; re-inserting moves it last, so eviction drops the stalest. */
function boundedSet<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.delete(key);
  if (map.size >= max) map.delete(map.keys().next().value as string);
  map.set(key, value);
}
