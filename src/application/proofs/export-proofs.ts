import * as E from 'fp-ts/lib/Either.js';
import type { ProofSummary } from '../../domain/proof/proof-record.js';
import { EXPORT_CAP, type ProofCursor, type ProofStore } from '../ports/proof-store.js';
import { encodeCursor, type CursorQuery } from './proof-cursor.js';
import { MAX_PAGE, startOf, type SearchFailure } from './search-proofs.js';

export { EXPORT_CAP };

/** An export: a search's filters and order, where it starts (`cursor`), and how many proofs at most (default and maximum EXPORT_CAP). */
export type ExportInput = CursorQuery & { readonly cursor?: string; readonly limit?: number };

export interface ProofExport {
  /**
   * The proofs in the list's order, a page at a time, each page read from the store only when
   * the one before has been taken: nothing holds more than a page of the export.
   */
  readonly pages: AsyncIterable<readonly ProofSummary[]>;
  /** Where the next export of the same list starts, known before the first proof: null when this one reaches the list's end. */
  readonly nextCursor: string | null;
  /** How many proofs the export held when it was planned (proofs stored meanwhile inside its range come too). */
  readonly planned: number;
  readonly limit: number;
}

/**
 * Exports the wallet's proofs of a search, up to a cap per request. Before anything is
 * answered, the export walks its range once by pages (summaries only, dropped as read) to find
 * its last proof and whether any proof lies past it: the continuation is then known up front,
 * and can be sent before the body (a header), where a client reads it without parsing the
 * body. The body walks the range again and stops at that last proof, so a proof that arrives
 * meanwhile inside the range is exported once here and never by the continuation, which
 * starts strictly after the last proof. Proofs are never deleted, so that proof is found.
 */
export class ExportProofs {
  constructor(
    private readonly store: ProofStore,
    private readonly pageSize: number = MAX_PAGE,
  ) {}

  async execute(input: { wallet: string; query: ExportInput }): Promise<E.Either<SearchFailure, ProofExport>> {
    const { cursor, limit = EXPORT_CAP, ...query } = input.query;
    if (!Number.isInteger(limit) || limit < 1 || limit > EXPORT_CAP) {
      return E.left({ _tag: 'InvalidRange', detail: `limit must be an integer from 1 to ${EXPORT_CAP}; continue with the next cursor` });
    }
    const start = startOf(query, cursor);
    if (E.isLeft(start)) return start;
    const plan = await this.plan(input.wallet, query, start.right, limit);
    return E.right({
      pages: this.pages(input.wallet, query, start.right, plan.lastProofId),
      nextCursor: plan.boundary ? encodeCursor(plan.boundary, query) : null,
      planned: plan.counted,
      limit,
    });
  }

  /** Walks the range: how many proofs, the last one's id, and its position when proofs follow it. */
  private async plan(wallet: string, query: CursorQuery, start: ProofCursor | undefined, limit: number) {
    let after = start;
    let counted = 0;
    let lastProofId: string | undefined;
    while (counted < limit) {
      // The last page asks for exactly what is left, so the store's own look-ahead (one row past the page) says whether a proof follows the cap.
      const page = await this.store.search(wallet, { ...query, limit: Math.min(this.pageSize, limit - counted), ...(after ? { after } : {}) });
      counted += page.items.length;
      lastProofId = page.items[page.items.length - 1]?.proofId ?? lastProofId;
      if (page.next === null) return { counted, lastProofId, boundary: null };
      after = page.next;
    }
    return { counted, lastProofId, boundary: after ?? null };
  }

  private async *pages(
    wallet: string,
    query: CursorQuery,
    start: ProofCursor | undefined,
    lastProofId: string | undefined,
  ): AsyncGenerator<readonly ProofSummary[], void> {
    if (lastProofId === undefined) return;
    let after = start;
    for (;;) {
      const page = await this.store.search(wallet, { ...query, limit: this.pageSize, ...(after ? { after } : {}) });
      const end = page.items.findIndex((p) => p.proofId === lastProofId);
      if (end >= 0) {
        yield page.items.slice(0, end + 1);
        return;
      }
      if (page.items.length > 0) yield page.items;
      if (page.next === null) return;
      after = page.next;
    }
  }
}
