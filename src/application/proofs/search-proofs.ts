import * as E from 'fp-ts/lib/Either.js';
import type { ProofSummary } from '../../domain/proof/proof-record.js';
import type { ProofQuery, ProofStore } from '../ports/proof-store.js';
import { decodeCursor, encodeCursor } from './proof-cursor.js';

export type SearchInput = Omit<ProofQuery, 'after'> & { readonly cursor?: string };

export interface SearchResult {
  readonly items: readonly ProofSummary[];
  readonly nextCursor: string | null;
}

export type SearchFailure =
  | { readonly _tag: 'InvalidCursor' }
  /** A cursor of a list with another order or other filters. */
  | { readonly _tag: 'CursorOfOtherQuery' }
  | { readonly _tag: 'InvalidRange'; readonly detail: string };

export const MAX_PAGE = 200;

/** Lists and searches the wallet's proofs with keyset pagination. */
export class SearchProofs {
  constructor(private readonly store: ProofStore) {}

  async execute(input: { wallet: string; query: SearchInput }): Promise<E.Either<SearchFailure, SearchResult>> {
    const { cursor, ...query } = input.query;
    if (!Number.isInteger(query.limit) || query.limit < 1 || query.limit > MAX_PAGE) {
      return E.left({ _tag: 'InvalidRange', detail: `limit must be an integer from 1 to ${MAX_PAGE}` });
    }
    if (query.createdAfterMs !== undefined && query.createdBeforeMs !== undefined && query.createdAfterMs > query.createdBeforeMs) {
      return E.left({ _tag: 'InvalidRange', detail: 'created_after must not be later than created_before' });
    }
    const after = cursor === undefined ? undefined : decodeCursor(cursor, query);
    if (after === null) return E.left({ _tag: 'InvalidCursor' });
    if (after === 'other-query') return E.left({ _tag: 'CursorOfOtherQuery' });
    const page = await this.store.search(input.wallet, { ...query, ...(after ? { after } : {}) });
    return E.right({ items: page.items, nextCursor: page.next ? encodeCursor(page.next, query) : null });
  }
}
