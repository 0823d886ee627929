import type * as E from 'fp-ts/lib/Either.js';
import type { Histogram } from 'prom-client';
import { ProofProtocol } from '../../application/proofs/proof-protocol.js';
import type { ProofChecker } from '../../application/ports/proof-checker.js';
import type { AddResult, ProofPage, ProofQuery, ProofStore } from '../../application/ports/proof-store.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { VerifiedProof } from '../../domain/protocol/verify-envelope.js';

/** The histograms these wrappers time into (the HTTP adapter's registry holds them). */
export interface ProofTimings {
  /** proof_verification_seconds */
  readonly verificationSeconds: Pick<Histogram, 'observe'>;
  /** proof_store_seconds */
  readonly storeSeconds: Pick<Histogram, 'observe'>;
}

/** The protocol, with every verification timed into proof_verification_seconds. */
export class MeasuredProofProtocol extends ProofProtocol {
  constructor(
    base: ProofProtocol,
    private readonly metrics: ProofTimings,
  ) {
    super(base.blake3, base.verifier, base.signer, base.limits);
  }

  override check(raw: unknown, received?: ReceivedEnvelope): E.Either<ProofFailure, VerifiedProof> {
    const started = process.hrtime.bigint();
    try {
      return super.check(raw, received);
    } finally {
      this.metrics.verificationSeconds.observe(Number(process.hrtime.bigint() - started) / 1e9);
    }
  }
}

/** A checker elsewhere (the verify workers), timed the same way: from handing over to answer. */
export class MeasuredProofChecker implements ProofChecker {
  constructor(
    private readonly inner: ProofChecker,
    private readonly metrics: ProofTimings,
  ) {}

  check(raw: unknown, json?: string): Promise<E.Either<ProofFailure, VerifiedProof>> {
    return timed(this.metrics.verificationSeconds, () => this.inner.check(raw, json));
  }
}

/** A proof store whose `add` is timed into proof_store_seconds, whatever its outcome. */
export class MeasuredProofStore implements ProofStore {
  constructor(
    private readonly inner: ProofStore,
    private readonly metrics: ProofTimings,
  ) {}

  add(record: ProofRecord): Promise<AddResult> {
    return timed(this.metrics.storeSeconds, () => this.inner.add(record));
  }

  get(wallet: string, proofId: string, options?: { readonly withText?: boolean }): Promise<ProofRecord | null> {
    return this.inner.get(wallet, proofId, options);
  }

  search(wallet: string, query: ProofQuery): Promise<ProofPage> {
    return this.inner.search(wallet, query);
  }

  count(wallet: string, query: ProofQuery, upTo: number): Promise<number> {
    return this.inner.count(wallet, query, upTo);
  }
}

/** Runs `run`, observing its time in seconds into `histogram`, whether it resolves or rejects. */
async function timed<T>(histogram: Pick<Histogram, 'observe'>, run: () => Promise<T>): Promise<T> {
  const started = process.hrtime.bigint();
  try {
    return await run();
  } finally {
    histogram.observe(Number(process.hrtime.bigint() - started) / 1e9);
  }
}
