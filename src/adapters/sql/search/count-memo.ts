import type { ProofQuery } from '../../../application/ports/proof-store.js';
import { indexable, type Hits } from './search-text.js';

/**
 * How many hits counts found a wallet's needle, topic or filters to have at least. Proofs are
 * only ever added and no filter of a proof's changes, so such a fact stays true: a search that
 * repeats a count already known to reach its bound (the next page, the same search again, the
 * offset pages of one search each asking for its total) skips it.
 */
export class CountMemo {
  private readonly reached = new Map<string, number>();

  constructor(private readonly kept: number) {}

  /** The most the count `key` was seen to reach (0 when never counted). */
  known(key: string): number {
    return this.reached.get(key) ?? 0;
  }

  remember(key: string, n: number): void {
    this.reached.delete(key);
    this.reached.set(key, Math.max(n, this.reached.get(key) ?? 0));
    // The oldest fact first (a Map iterates in insertion order).
    if (this.reached.size > this.kept) this.reached.delete(this.reached.keys().next().value!);
  }
}

/** The key of the count of a needle's or a topic's hits in one wallet. */
export function reachedKey(key: number, by: Hits): string {
  return 'text' in by ? `${key}\u0000text\u0000${by.text.toLowerCase()}` : `${key}\u0000topic\u0000${by.topic}`;
}

/**
 * The key of a count's fact: the wallet's and the filters' (not the order, page or position).
 * A needle or a topic alone is the count of its hits in the wallet, the fact a page's slices
 * count too (reachedKey), so each can use what the other found.
 */
export function countedKey(key: number, q: ProofQuery): string {
  // Every member but the order and the page's is a filter, so a filter added later is part of the key.
  const { order: _order, sort: _sort, limit: _limit, after: _after, offset: _offset, ...filters } = q;
  const given = Object.entries({ ...filters, text: q.text?.toLowerCase() })
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const [only] = given;
  if (given.length === 1 && only![0] === 'topic') return reachedKey(key, { topic: q.topic! });
  if (given.length === 1 && only![0] === 'text' && indexable(q.text!)) return reachedKey(key, { text: q.text! });
  return `${key}\u0000count\u0000${JSON.stringify(given)}`;
}
