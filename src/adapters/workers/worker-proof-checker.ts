import { receivedText } from '../../application/proofs/received-envelope.js';
import type { ReceivedEnvelope } from '../../domain/protocol/acto-hashes.js';
import * as E from 'fp-ts/lib/Either.js';
import type { ProofChecker } from '../../application/ports/proof-checker.js';
import type { ProofProtocol } from '../../application/proofs/proof-protocol.js';
import { canonicalProblem } from '../../domain/protocol/canonical-problems.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { VerifiedProof } from '../../domain/protocol/verify-envelope.js';
import { checkSafely, type CheckOutcome } from '../crypto/inline-batch-verifier.js';
import type { WorkerReply } from './worker-messages.js';
import type { Lane, PoolJob, WorkerPool } from './worker-pool.js';

/**
 * Messages of submissions in flight per submission worker. Each turn of the event loop sends
 * the submissions that arrived in it at once rather than holding them until an earlier answer
 * is in: a worker answers a message in a fraction of a millisecond, but its answer can wait
 * as long again for the busy event loop to read it, and submissions held meanwhile waited for
 * both. Measured with `bench/threads.ts` (SQLite, AMD EPYC, 2 vCPUs), 8 instead of 2 was
 * ahead in 7 of 8 alternating pairs and 32 did no better than 8 (bench/results/2026-11-25-where-the-time-goes.md).
 */
const SUBMISSION_DEPTH = 8;
/** Most submissions sent to a worker in one message. */
const MAX_PER_MESSAGE = 32;

interface Waiting {
  readonly raw: unknown;
  /** A JSON text that parses to exactly `raw`: the caller's own, or JSON.stringify's. */
  readonly json: string;
  /** Whether `json` is the submitter's own text (numbers as sent), not JSON.stringify's. */
  readonly asSent: boolean;
  readonly resolve: (outcome: CheckOutcome, json: string | undefined) => void;
}

/**
 * Each submission's checks on a worker of the pool, so the event loop, which serves every
 * request, does as little as possible per submission: it hands over the envelope's JSON text
 * and reads back the outcome.
 *
 * Submissions wait until a worker has room and then travel together, up to MAX_PER_MESSAGE per
 * message: under load a message carries several, and each message costs the event loop about
 * as much as verifying a proof. They are served before batch chunks (a higher priority), so a
 * large batch verification does not hold them up, and by all workers but
 * one: the event loop needs a core of its own under load, and with fewer workers taking
 * submissions each message carries more of them and fewer threads are woken per submission.
 *
 * A worker sees the envelope's JSON form. That is the envelope itself for a parsed request
 * body (JSON values only); anything else is checked on this thread.
 */
export class WorkerProofChecker implements ProofChecker {
  private waiting: Waiting[] = [];

  constructor(
    private readonly pool: WorkerPool,
    private readonly protocol: ProofProtocol,
  ) {
    const lane: Lane = {
      priority: 1,
      depth: SUBMISSION_DEPTH,
      workers: Math.max(1, pool.size - 1),
      hasWork: () => this.waiting.length > 0,
      dispense: (room) => {
        const perMessage = Math.min(MAX_PER_MESSAGE, Math.ceil(this.waiting.length / room));
        return () => (this.waiting.length > 0 ? this.job(this.waiting.splice(0, perMessage)) : undefined);
      },
    };
    pool.addLane(lane);
  }

  /**
   * The envelope that is stored is the caller's own object. The worker checks a JSON text of
   * it: the caller's own (`given`, which parses to exactly `raw`), or else JSON.stringify's,
   * which is the same value for a parsed body except for a number too large for a double (see
   * `jsonForWorker`).
   */
  async check(raw: unknown, given?: string): Promise<E.Either<ProofFailure, VerifiedProof>> {
    const json = isPlainObject(raw) && this.pool.open ? (given ?? jsonForWorker(raw)) : null;
    const [outcome, envelopeJson] =
      json === null
        ? [checkSafely(this.protocol, raw, this.receivedIn(given)), undefined]
        : await new Promise<[CheckOutcome, string | undefined]>((resolve) => {
            // The rest of this turn's submissions join it before the first message goes.
            if (this.waiting.length === 0) setImmediate(() => this.pool.pump());
            this.waiting.push({ raw, json, asSent: given !== undefined, resolve: (o, text) => resolve([o, text]) });
          });
    if (!outcome.ok) return E.left(outcome.failure);
    // The text the worker checked parses to exactly `raw`: kept, it is what gets stored.
    const verified = { proofId: outcome.proofId, envelope: raw as ProofEnvelope, createdAtMs: outcome.createdAtMs };
    return E.right(envelopeJson === undefined ? verified : { ...verified, envelopeJson });
  }

  private job(chunk: readonly Waiting[]): PoolJob {
    return {
      // Each submission's text was made when it arrived (see `check`); joined into the array's.
      message: () => ({ body: { json: `[${chunk.map((w) => w.json).join(',')}]`, asSent: chunk.flatMap((w, i) => (w.asSent ? [i] : [])) } }),
      settle: (reply) => {
        const answer = reply as WorkerReply;
        if (answer.type !== 'done' || answer.results.length !== chunk.length) return false;
        chunk.forEach((w, i) => w.resolve(answer.results[i]!, w.json));
        return true;
      },
      // Checked here instead, each keeps its text: it parses to exactly the value checked.
      inline: () => chunk.forEach((w) => w.resolve(checkSafely(this.protocol, w.raw, w.asSent ? this.receivedIn(w.json) : undefined), w.json)),
    };
  }

  /** The envelope as its text has it (numbers' text kept), read only if the ACTO form is needed. */
  private receivedIn(json: string | undefined): ReceivedEnvelope | undefined {
    return json === undefined ? undefined : receivedText(json, this.protocol.limits.maxDepth)();
  }
}

/**
 * The text a worker checks a submission as, or null where that text would not be the same
 * value: one JSON cannot write (a BigInt, a cycle, a throwing getter), or one holding a number
 * beyond a double's range (`1e400` parses to Infinity, which JSON writes as null). Those are
 * checked inline, where the check names the problem. Only a text with a null in it can hide
 * such a number, so the search for one is rarely made.
 */
function jsonForWorker(raw: unknown): string | null {
  let text: string | undefined;
  try {
    text = JSON.stringify(raw) as string | undefined;
  } catch {
    return null;
  }
  if (text === undefined) return null;
  return text.includes('null') && canonicalProblem(raw, 'envelope') !== null ? null : text;
}

/** Only plain objects can be envelopes; everything else fails the shape check at once. */
function isPlainObject(value: unknown): boolean {
  try {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false; // a Proxy whose traps throw: inline gives it its own report
  }
}
