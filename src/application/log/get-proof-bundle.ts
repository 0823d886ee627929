import * as E from 'fp-ts/lib/Either.js';
import { proofBundle, type ProofBundle } from '../../domain/log/proof-bundle.js';
import { hexToBytes } from '../../domain/protocol/encoding.js';
import type { ProofStore } from '../ports/proof-store.js';
import type { ProofNotFound } from '../proofs/get-proof.js';
import type { LogQueryFailure } from './log-failures.js';
import type { ProveInclusion } from './prove-inclusion.js';

export type ProofBundleFailure = ProofNotFound | LogQueryFailure;

/**
 * A proof of the wallet with its inclusion proof at the latest checkpoint, as one bundle
 * (docs/log.md, "Proof bundles"). Another wallet's proof is indistinguishable from none; a
 * proof no published checkpoint covers yet is NotInLog.
 */
export class GetProofBundle {
  constructor(
    private readonly store: ProofStore,
    private readonly inclusion: ProveInclusion,
  ) {}

  async execute(input: { wallet: string; proofId: string }): Promise<E.Either<ProofBundleFailure, ProofBundle>> {
    const record = /^[0-9a-f]{64}$/.test(input.proofId) ? await this.store.get(input.wallet, input.proofId, { withText: true }) : null;
    if (!record) return E.left({ _tag: 'ProofNotFound', proofId: input.proofId });
    const proof = await this.inclusion.execute({ leaf: hexToBytes(record.proofId)! });
    if (E.isLeft(proof)) return proof;
    const { logIndex, treeSize, leafHash, hashes, checkpoint } = proof.right;
    // Without a tree size, the answer is against the latest checkpoint and carries its note.
    if (checkpoint === undefined) return E.left({ _tag: 'NotInLog' });
    const envelopeText = record.envelopeJson ?? JSON.stringify(record.envelope);
    const envelope: unknown = JSON.parse(envelopeText);
    return E.right(proofBundle({ proofId: record.proofId, envelope, envelopeText, logIndex, treeSize, leafHash, hashes, checkpoint }));
  }
}
