import * as E from 'fp-ts/lib/Either.js';
import type { BatchVerifier } from '../../application/ports/batch-verifier.js';
import type { ProofProtocol } from '../../application/proofs/proof-protocol.js';
import { toReport, type VerificationReport } from '../../application/proofs/verify-proof.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import { signatureVerdict, type PendingSignature } from '../../domain/protocol/verify-envelope.js';
import { prepareSafely, verifySafely } from '../crypto/inline-batch-verifier.js';
import { SIGNATURE, SIGNATURE_RECORD_BYTES, signatureVerdictByte, type WorkerReply } from './worker-messages.js';
import type { Lane, PoolJob, WorkerPool } from './worker-pool.js';

/** Batches with fewer envelopes than this run inline: transfer would cost more than it saves. */
const INLINE_BELOW = 64;
/**
 * Chunks per worker for one batch (at least MIN_CHUNK envelopes each). Small chunks let this
 * thread check the next one's envelopes while workers verify signatures, and balance the load.
 */
const CHUNKS_PER_WORKER = 16;
const MIN_CHUNK = 16;
/** Two chunks in flight per worker: it starts the next while this thread reads its answer. */
const PIPELINE_DEPTH = 2;

/** A batch chunk's signatures (check 7), checks 1–6 of their envelopes already made here. */
interface SignatureJob {
  readonly pending: readonly PendingSignature[];
  /** The envelopes they came from, to verify inline should no worker answer. */
  readonly envelopes: readonly unknown[];
  /** Each one as received, when the batch's text was given (see BatchVerifier). */
  readonly received: ReadonlyArray<ReceivedEnvelope | undefined>;
  readonly done: (reports: readonly VerificationReport[]) => void;
}

export interface WorkerBatchVerifierOptions {
  /** Lets other work run between chunks; the next turn of the event loop unless a test says otherwise. */
  readonly nextTurn?: () => Promise<void>;
}

const nextImmediate = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Batch verification on the worker pool, reports in input order, each the one
 * `protocol.verify` gives whatever the value.
 *
 * Checks 1–6 of each envelope (shape, versions, timestamps, hashes, encodings) run here, a
 * chunk at a time with the event loop served in between, and only the signatures travel to
 * the workers, packed as bytes and transferred. The envelopes are already objects here:
 * serializing them for a worker to parse again cost more than those checks themselves, and
 * the signature, which the workers check, is most of a check's cost. Once every chunk is
 * checked this far, this thread verifies the signatures of chunks still waiting for a worker
 * instead of waiting for the workers to get to them.
 */
export class WorkerBatchVerifier implements BatchVerifier {
  private readonly queue: SignatureJob[] = [];
  private helped = 0;
  private readonly nextTurn: () => Promise<void>;

  constructor(
    private readonly pool: WorkerPool,
    private readonly protocol: ProofProtocol,
    options: WorkerBatchVerifierOptions = {},
  ) {
    this.nextTurn = options.nextTurn ?? nextImmediate;
    // After submissions (see WorkerProofChecker): a large batch must not hold them up.
    const lane: Lane = { priority: 0, depth: PIPELINE_DEPTH, hasWork: () => this.queue.length > 0, dispense: () => () => this.toPoolJob(this.queue.shift()) };
    pool.addLane(lane);
  }

  /** Batch chunks whose signatures this thread verified, having checked the whole batch before the workers were done. */
  get chunksHelped(): number {
    return this.helped;
  }

  async verifyMany(envelopes: readonly unknown[], received?: (index: number) => ReceivedEnvelope): Promise<VerificationReport[]> {
    if (envelopes.length < INLINE_BELOW || this.pool.size === 0) return envelopes.map((raw, i) => verifySafely(this.protocol, raw, received?.(i)));
    const reports = new Array<VerificationReport>(envelopes.length);
    const chunk = Math.max(MIN_CHUNK, Math.ceil(envelopes.length / (this.pool.size * CHUNKS_PER_WORKER)));
    const jobs: Promise<void>[] = [];
    for (let start = 0; start < envelopes.length; start += chunk) {
      // Other requests get the event loop between chunks, and workers' answers are read.
      if (start > 0) await this.nextTurn();
      const indexes: number[] = [];
      const pending: PendingSignature[] = [];
      for (let i = start; i < Math.min(start + chunk, envelopes.length); i++) {
        const prepared = prepareSafely(this.protocol, envelopes[i], received?.(i));
        if (E.isLeft(prepared)) reports[i] = toReport(prepared);
        else {
          indexes.push(i);
          pending.push(prepared.right);
        }
      }
      if (pending.length === 0) continue;
      jobs.push(
        new Promise((resolve) => {
          const done = (chunkReports: readonly VerificationReport[]) => {
            indexes.forEach((index, k) => (reports[index] = chunkReports[k]!));
            resolve();
          };
          this.queue.push({ pending, envelopes: indexes.map((i) => envelopes[i]), received: indexes.map((i) => received?.(i)), done });
          this.pool.pump();
        }),
      );
    }
    // Every chunk is checked up to its signatures. Rather than wait idle for the workers, this
    // thread verifies the signatures of chunks no worker has taken yet, last first (workers
    // take from the front), a chunk a turn.
    for (let job = this.queue.pop(); job !== undefined; job = this.queue.pop()) {
      this.settle(job, this.verifyHere(job.pending));
      this.helped++;
      await this.nextTurn();
    }
    await Promise.all(jobs);
    return reports;
  }

  private toPoolJob(job: SignatureJob | undefined): PoolJob | undefined {
    if (job === undefined) return undefined;
    return {
      message: () => {
        const signatures = packSignatures(job.pending);
        return { body: { signatures, count: job.pending.length }, transfer: [signatures] };
      },
      settle: (reply) => {
        const answer = reply as WorkerReply;
        if (answer.type !== 'verified' || answer.verdicts.length !== job.pending.length) return false;
        this.settle(job, answer.verdicts);
        return true;
      },
      inline: () => job.done(job.envelopes.map((raw, i) => verifySafely(this.protocol, raw, job.received[i]))),
    };
  }

  /** Signature verdicts on this thread, as a worker gives them (verify-worker.ts). */
  private verifyHere(pending: readonly PendingSignature[]): Uint8Array {
    return Uint8Array.from(pending, ({ publicKey, message, signature }) => signatureVerdictByte(this.protocol.verifier, publicKey, message, signature));
  }

  /** Reports from verdicts; a signature whose verifier threw is verified again here. */
  private settle(job: SignatureJob, verdicts: Uint8Array): void {
    job.done(
      job.pending.map((pending, i) =>
        verdicts[i] === SIGNATURE.THREW
          ? verifySafely(this.protocol, job.envelopes[i], job.received[i])
          : toReport(signatureVerdict(pending, verdicts[i] === SIGNATURE.VALID)),
      ),
    );
  }
}

/** The signatures as SIGNATURE_RECORD_BYTES records in one buffer, to be transferred rather than copied. */
function packSignatures(pending: readonly PendingSignature[]): ArrayBuffer {
  const buffer = new ArrayBuffer(pending.length * SIGNATURE_RECORD_BYTES);
  const bytes = new Uint8Array(buffer);
  pending.forEach(({ publicKey, message, signature }, i) => {
    if (publicKey.length !== 32 || message.length !== 64 || signature.length !== 64) throw new RangeError('a pending signature has the wrong size');
    const at = i * SIGNATURE_RECORD_BYTES;
    bytes.set(publicKey, at);
    bytes.set(message, at + 32);
    bytes.set(signature, at + 96);
  });
  return buffer;
}
