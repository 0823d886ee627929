import * as E from 'fp-ts/lib/Either.js';
import type { ProofSummary } from '../../domain/proof/proof-record.js';
import { MAX_OFFSET, TOTAL_CAP, type ProofCursor, type ProofQuery, type ProofStore } from '../ports/proof-store.js';
import { decodeCursor, encodeCursor, type CursorQuery } from './proof-cursor.js';

/**
 * A search: the filters, `order`, `sort` (default `created_at`) and `limit` of a ProofQuery,
 * and where the page starts: after `cursor` (a `nextCursor` of the same query), or `offset`
 * matches in (0 to MAX_OFFSET), or at the start. Not both.
 */
export type SearchInput = Omit<ProofQuery, 'after' | 'offset'> & { readonly cursor?: string; readonly offset?: number };

export interface SearchResult {
  readonly items: readonly ProofSummary[];
  /** Continues right after this page (also after an offset page), or null when it is the last. */
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
  /** Given for an offset search: how many proofs match, counted up to TOTAL_CAP (`exact` false beyond). */
  readonly total?: { readonly count: number; readonly exact: boolean };
}

export type SearchFailure =
  | { readonly _tag: 'InvalidCursor' }
  /** A cursor of a list with another order or other filters. */
  | { readonly _tag: 'CursorOfOtherQuery' }
  | { readonly _tag: 'InvalidRange'; readonly detail: string };

export const MAX_PAGE = 200;
export { MAX_OFFSET, TOTAL_CAP };

/** Lists and searches the wallet's proofs, a page at a time from a cursor or an offset. */
export class SearchProofs {
  constructor(private readonly store: ProofStore) {}

  async execute(input: { wallet: string; query: SearchInput }): Promise<E.Either<SearchFailure, SearchResult>> {
    const { cursor, offset, ...query } = input.query;
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_PAGE) {
      return E.left({ _tag: 'InvalidRange', detail: `limit must be an integer from 1 to ${MAX_PAGE}` });
    }
    if (offset !== undefined && (!Number.isInteger(offset) || offset < 0 || offset > MAX_OFFSET)) {
      return E.left({ _tag: 'InvalidRange', detail: `offset must be an integer from 0 to ${MAX_OFFSET}; page deeper with next_cursor` });
    }
    if (offset !== undefined && cursor !== undefined) {
      return E.left({ _tag: 'InvalidRange', detail: 'a search takes cursor or offset, not both: the cursor already says where the page starts' });
    }
    const start = startOf(query, cursor);
    if (E.isLeft(start)) return start;
    const after = start.right;
    const [page, counted] = await Promise.all([
      this.store.search(input.wallet, { ...query, ...(after ? { after } : {}), ...(offset ? { offset } : {}) }),
      offset === undefined ? undefined : this.store.count(input.wallet, query, TOTAL_CAP + 1),
    ]);
    return E.right({
      items: page.items,
      nextCursor: page.next ? encodeCursor(page.next, query) : null,
      hasMore: page.next !== null,
      ...(counted !== undefined && { total: { count: Math.min(counted, TOTAL_CAP), exact: counted <= TOTAL_CAP } }),
    });
  }
}

/** Where a list starts: after `cursor` (refused when it is not one of this list's), or at its start; a window of time that ends before it begins is refused. */
export function startOf(query: CursorQuery, cursor: string | undefined): E.Either<SearchFailure, ProofCursor | undefined> {
  if (query.createdAfterMs !== undefined && query.createdBeforeMs !== undefined && query.createdAfterMs > query.createdBeforeMs) {
    return E.left({ _tag: 'InvalidRange', detail: 'created_after must not be later than created_before' });
  }
  const after = cursor === undefined ? undefined : decodeCursor(cursor, query);
  if (after === null) return E.left({ _tag: 'InvalidCursor' });
  if (after === 'other-query') return E.left({ _tag: 'CursorOfOtherQuery' });
  return E.right(after);
}
