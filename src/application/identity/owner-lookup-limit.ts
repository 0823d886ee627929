import type { Clock } from '../ports/clock.js';

const WINDOW_MS = 60_000;

/**
 * How many distinct owners one wallet may look up per minute in access checks. Each new owner
 * is a call to the balance source (an RPC call on Solana) and an entry in a cache, so without
 * it one key could sweep the balance source and the cache at its full request rate. Asking
 * again about an owner already asked about this minute is free. Counted per instance, in a
 * fixed window; the memory it holds is the owners seen this minute, at most `perMinute` a wallet.
 */
export class OwnerLookupLimit {
  private window = -1;
  private readonly seen = new Map<string, Set<string>>();

  constructor(
    private readonly clock: Clock,
    readonly perMinute: number,
  ) {}

  /** Null when the lookup may go ahead; otherwise the seconds until the window turns. */
  admit(wallet: string, owner: string): number | null {
    const now = this.clock.nowMs();
    const window = Math.floor(now / WINDOW_MS);
    if (window !== this.window) {
      this.window = window;
      this.seen.clear();
    }
    let owners = this.seen.get(wallet);
    if (owners === undefined) {
      owners = new Set();
      this.seen.set(wallet, owners);
    }
    if (owners.has(owner)) return null;
    if (owners.size >= this.perMinute) return Math.max(1, Math.ceil(((window + 1) * WINDOW_MS - now) / 1000));
    owners.add(owner);
    return null;
  }
}
