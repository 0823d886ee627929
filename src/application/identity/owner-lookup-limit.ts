import type { Clock } from '../ports/clock.js';
import type { OwnerLookups } from '../ports/owner-lookups.js';

const WINDOW_MS = 60_000;

/**
 * The owner-lookup limit of one instance, in a fixed one-minute window: the default without
 * Redis, and the fallback while Redis does not answer. The memory it holds is the owners seen
 * this minute, at most `perMinute` a wallet.
 */
export class OwnerLookupLimit implements OwnerLookups {
  private window = -1;
  private readonly seen = new Map<string, Set<string>>();

  constructor(
    private readonly clock: Clock,
    readonly perMinute: number,
  ) {}

  admit(wallet: string, owner: string): Promise<number | null> {
    return Promise.resolve(this.admitNow(wallet, owner));
  }

  private admitNow(wallet: string, owner: string): number | null {
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
