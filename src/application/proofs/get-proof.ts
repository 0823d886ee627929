import * as E from 'fp-ts/lib/Either.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import type { ProofStore } from '../ports/proof-store.js';

export type ProofNotFound = { readonly _tag: 'ProofNotFound'; readonly proofId: string };

/** Reads one proof of the wallet. Another wallet's proof is indistinguishable from none. */
export class GetProof {
  constructor(private readonly store: ProofStore) {}

  /** `withText`: with the envelope's text as stored (see ProofStore.get). */
  async execute(input: { wallet: string; proofId: string; withText?: boolean }): Promise<E.Either<ProofNotFound, ProofRecord>> {
    const found = /^[0-9a-f]{64}$/.test(input.proofId) ? await this.store.get(input.wallet, input.proofId, { withText: input.withText ?? false }) : null;
    return found ? E.right(found) : E.left({ _tag: 'ProofNotFound', proofId: input.proofId });
  }
}
