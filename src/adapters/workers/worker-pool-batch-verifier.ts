import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import type { ProofProtocol } from '../../application/proof-protocol.js';
import * as E from 'fp-ts/lib/Either.js';
import type { BatchVerifier } from '../../application/ports/batch-verifier.js';
import type { ProofChecker } from '../../application/ports/proof-checker.js';
import type { VerificationReport } from '../../application/verify-proof.js';
import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import type { ProofFailure } from '../../domain/protocol/failures.js';
import type { VerifiedProof } from '../../domain/protocol/verify-envelope.js';
import { createProofProtocol, type ProofProtocolOptions } from '../crypto/proof-protocol-factory.js';
import { checkSafely, prepareSafely, verifySafely } from '../crypto/inline-batch-verifier.js';
import { toReport } from '../../application/verify-proof.js';
import { signatureVerdict, type PendingSignature } from '../../domain/protocol/verify-envelope.js';
import { canonicalProblem } from '../../domain/protocol/canonical-problems.js';
import { siblingScript, spawnWorker } from './spawn-worker.js';
import { SIGNATURE, SIGNATURE_RECORD_BYTES, signatureVerdictByte, type CheckOutcome, type ChunkRequest, type VerifyWorkerConfig, type WorkerReply } from './worker-messages.js';

export interface WorkerPoolOptions {
  /** Worker threads; default os.availableParallelism(). */
  readonly size?: number;
  /** Batches with fewer envelopes than this run inline: transfer would cost more than it saves. */
  readonly inlineBelow?: number;
  /**
   * Chunks per worker for one batch (default 16, at least 16 envelopes each). Small chunks let
   * the main thread check the next one's envelopes while workers verify signatures, and
   * balance the load.
   */
  readonly chunksPerWorker?: number;
  /** How submissions travel to a worker (see worker-messages.ts): JSON text by default, or structured clone. */
  readonly transport?: 'json' | 'clone';
  /** The same options reach the inline protocol and every worker's, so both judge alike. */
  readonly protocol?: ProofProtocolOptions;
  /** Another worker script, for tests that need a worker to misbehave. */
  readonly workerScript?: URL;
  /** How far below the event loop's priority the workers run (see thread-priority.ts); default 0. */
  readonly niceIncrement?: number;
  /**
   * Workers that check submissions: default all but one (at least one). Batches use them all.
   * The event loop, which hands each submission over and answers it, needs a core of its own
   * under load; with fewer workers taking submissions, each message carries more of them and
   * fewer threads are woken per submission.
   */
  readonly submissionWorkers?: number;
}

type Job = SignatureJob | CheckJob;

/** A batch verify's signatures (check 7), checks 1–6 of their envelopes already made here. */
interface SignatureJob {
  readonly id: number;
  readonly mode: 'signatures';
  readonly pending: readonly PendingSignature[];
  /** The envelopes they came from, to verify inline should no worker answer. */
  readonly envelopes: readonly unknown[];
  readonly done: (reports: readonly VerificationReport[]) => void;
}

/** Submissions' checks, with the envelopes' JSON texts (empty with the clone transport). */
interface CheckJob {
  readonly id: number;
  readonly mode: 'check';
  readonly envelopes: readonly unknown[];
  readonly texts: readonly string[];
  readonly done: (results: readonly CheckOutcome[]) => void;
}

interface Single {
  readonly raw: unknown;
  /** A JSON text of raw (the caller's own, or JSON.stringify's), with the JSON transport. */
  readonly json: string | undefined;
  readonly resolve: (outcome: CheckOutcome, envelopeJson: string | undefined) => void;
}

interface Slot {
  readonly worker: Worker;
  ready: boolean;
  readonly inFlight: Map<number, Job>;
  /** Messages posted to it, for stats. */
  posted: number;
}

/** Two batch chunks in flight per worker: it starts the next while the main thread reads its answer. */
const PIPELINE_DEPTH = 2;
/**
 * Messages of submissions in flight per submission worker. Each turn of the event loop sends
 * the submissions that arrived in it at once rather than holding them until an earlier answer
 * is in: a worker answers a message in a fraction of a millisecond, but its answer can wait
 * as long again for the busy event loop to read it, and submissions held meanwhile waited for
 * both. Measured with `bench/threads.ts` (SQLite, AMD EPYC, 2 vCPUs), 8 instead of 2 was
 * ahead in 7 of 8 alternating pairs and 32 did no better than 8 (README, Benchmarks).
 */
const SUBMISSION_DEPTH = 8;
const MIN_CHUNK = 16;
/** Most single submissions sent to a worker in one message. */
const MAX_SINGLES_PER_CHUNK = 32;

/**
 * Checks proofs on a fixed pool of worker threads, results in input order.
 *
 * - A batch (`verifyMany`) is checked here up to its signatures, a chunk at a time with the
 *   event loop served between chunks, and the workers verify the signatures, packed as bytes.
 *   Its reports are exactly what inline verification gives, for any value.
 * - A submission (`check`) goes to a worker whole, as JSON text, so the event loop, which
 *   serves every request, does as little as possible per submission.
 *
 * Never fails a batch: a chunk that cannot be sent, or whose worker dies or answers wrongly,
 * is verified inline once; a dead worker is replaced. Workers are unref'd while idle, so a
 * forgotten pool does not keep the process alive; `close()` terminates them.
 *
 * With the JSON transport a submission's worker sees the envelope's JSON form: this matches
 * inline checking for JSON values (what a request body holds), not for objects carrying
 * Dates, class instances or undefined members. Use `transport: 'clone'` for those.
 */
export class WorkerPoolBatchVerifier implements BatchVerifier, ProofChecker {
  private readonly slots = new Set<Slot>();
  private readonly queue: Job[] = [];
  private singles: Single[] = [];
  private nextId = 0;
  private closed = false;
  private restarts = 0;
  private chunksInline = 0;
  private chunksHelped = 0;

  private constructor(
    private readonly inline: ProofProtocol,
    private readonly options: Required<Omit<WorkerPoolOptions, 'protocol'>> & { protocol: ProofProtocolOptions },
  ) {}

  /** Starts every worker and waits until each has built its protocol; throws if one cannot start. */
  static async create(options: WorkerPoolOptions = {}): Promise<WorkerPoolBatchVerifier> {
    const resolved = {
      size: options.size ?? availableParallelism(),
      inlineBelow: options.inlineBelow ?? 64,
      chunksPerWorker: options.chunksPerWorker ?? 16,
      transport: options.transport ?? 'json',
      protocol: options.protocol ?? {},
      workerScript: options.workerScript ?? siblingScript(import.meta.url, 'verify-worker'),
      niceIncrement: options.niceIncrement ?? 0,
    };
    const submissionWorkers = options.submissionWorkers ?? Math.max(1, resolved.size - 1);
    if (!Number.isInteger(resolved.size) || resolved.size < 1) throw new RangeError(`pool size must be ≥ 1 (got ${resolved.size})`);
    if (!Number.isInteger(submissionWorkers) || submissionWorkers < 1 || submissionWorkers > resolved.size) {
      throw new RangeError(`submission workers must be 1 to the pool size ${resolved.size} (got ${submissionWorkers})`);
    }
    const pool = new WorkerPoolBatchVerifier(await createProofProtocol(resolved.protocol), { ...resolved, submissionWorkers });
    try {
      await Promise.all(Array.from({ length: resolved.size }, () => pool.spawn()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  /**
   * Checks 1–6 of each envelope (shape, versions, timestamps, hashes, encodings) run here, a
   * chunk at a time with the event loop served in between, and only the signatures travel to
   * the workers, packed as bytes and transferred. The envelopes are already objects here:
   * serializing them for a worker to parse again cost more than those checks themselves, and
   * the signature, which the workers check, is most of a check's cost. Once every chunk is
   * checked this far, this thread verifies the signatures of chunks still waiting for a
   * worker instead of waiting for the workers to get to them. Each report is the one
   * `protocol.verify` gives, whatever the value.
   */
  async verifyMany(envelopes: readonly unknown[]): Promise<VerificationReport[]> {
    if (envelopes.length < this.options.inlineBelow || this.slots.size === 0) return envelopes.map((raw) => verifySafely(this.inline, raw));
    const reports = new Array<VerificationReport>(envelopes.length);
    const chunk = Math.max(MIN_CHUNK, Math.ceil(envelopes.length / (this.slots.size * this.options.chunksPerWorker)));
    const jobs: Promise<void>[] = [];
    for (let start = 0; start < envelopes.length; start += chunk) {
      // Other requests get the event loop between chunks, and workers' answers are read.
      if (start > 0) await new Promise((resolve) => setImmediate(resolve));
      const indexes: number[] = [];
      const pending: PendingSignature[] = [];
      for (let i = start; i < Math.min(start + chunk, envelopes.length); i++) {
        const prepared = prepareSafely(this.inline, envelopes[i]);
        if (E.isLeft(prepared)) {
          reports[i] = toReport(prepared);
        } else {
          indexes.push(i);
          pending.push(prepared.right);
        }
      }
      if (pending.length === 0) continue;
      jobs.push(
        new Promise((resolve) => {
          this.queue.push({
            id: this.nextId++,
            mode: 'signatures',
            pending,
            envelopes: indexes.map((i) => envelopes[i]),
            done: (chunkReports) => {
              indexes.forEach((index, k) => (reports[index] = chunkReports[k]!));
              resolve();
            },
          });
          this.pump();
        }),
      );
    }
    // Every chunk is checked up to its signatures. Rather than wait idle for the workers, this
    // thread verifies the signatures of chunks no worker has taken yet, last first (workers
    // take from the front), a chunk a turn.
    for (let job = this.takeQueuedSignatures(); job !== undefined; job = this.takeQueuedSignatures()) {
      this.settleSignatures(job, this.verifyHere(job.pending));
      this.chunksHelped++;
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all(jobs);
    return reports;
  }

  /**
   * One submission's checks on a worker, so the event loop stays free for requests.
   * Submissions wait in a list until a worker has room, and then travel together, up to
   * MAX_SINGLES_PER_CHUNK per message: under load a message carries several, and each message
   * costs the event loop about as much as verifying a proof. They go before queued batch
   * chunks, so a large batch verification does not hold up submissions. The envelope that is
   * stored is the caller's own object. The worker checks a JSON text of it: the caller's own
   * (`given`, which parses to exactly `raw`), or else JSON.stringify's, which is the same value
   * for a parsed body except for a number too large for a double (see `jsonForWorker`).
   */
  async check(raw: unknown, given?: string): Promise<E.Either<ProofFailure, VerifiedProof>> {
    const pooled = isPlainObject(raw) && this.slots.size > 0 && !this.closed;
    const json = pooled && this.options.transport === 'json' ? (given ?? jsonForWorker(raw)) : undefined;
    const [outcome, envelopeJson] =
      !pooled || json === null
        ? [checkSafely(this.inline, raw), undefined]
        : await new Promise<[CheckOutcome, string | undefined]>((resolve) => {
            // The rest of this turn's submissions join it before the first message goes.
            if (this.singles.length === 0) setImmediate(() => this.pump());
            this.singles.push({ raw, json, resolve: (o, text) => resolve([o, text]) });
          });
    if (!outcome.ok) return E.left(outcome.failure);
    // The text the worker checked parses to exactly `raw`: kept, it is what gets stored.
    const verified = { proofId: outcome.proofId, envelope: raw as ProofEnvelope, createdAtMs: outcome.createdAtMs };
    return E.right(envelopeJson === undefined ? verified : { ...verified, envelopeJson });
  }

  /** The next `size` waiting submissions as one job. */
  private takeSingles(size: number): Job {
    const chunk = this.singles.splice(0, size);
    const job: CheckJob = {
      id: this.nextId++,
      mode: 'check',
      envelopes: chunk.map((s) => s.raw),
      texts: chunk.flatMap((s) => (s.json === undefined ? [] : [s.json])),
      done: (outcomes) => chunk.forEach((s, i) => s.resolve(outcomes[i]!, s.json)),
    };
    return job;
  }

  /** Terminates the workers. Chunks still in flight are finished inline; later batches run inline. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.slots].map((slot) => {
        // An unref'd worker would let the process exit before `terminate()` settles.
        slot.worker.ref();
        return slot.worker.terminate();
      }),
    );
  }

  /** For metrics and tests. */
  get stats(): {
    readonly workers: number;
    readonly restarts: number;
    readonly chunksInline: number;
    /** Batch chunks whose signatures this thread verified, having checked the whole batch before the workers were done. */
    readonly chunksHelped: number;
    readonly messagesPerWorker: readonly number[];
  } {
    return {
      workers: this.slots.size,
      restarts: this.restarts,
      chunksInline: this.chunksInline,
      chunksHelped: this.chunksHelped,
      messagesPerWorker: [...this.slots].map((slot) => slot.posted),
    };
  }

  /** Starts one worker; resolves once it is ready, rejects if it exits before. */
  private spawn(): Promise<void> {
    const config: VerifyWorkerConfig = { protocol: this.options.protocol };
    const slot: Slot = { worker: spawnWorker(this.options.workerScript, config, { niceIncrement: this.options.niceIncrement }), ready: false, inFlight: new Map(), posted: 0 };
    this.slots.add(slot);
    return new Promise((resolve, reject) => {
      slot.worker.on('message', (reply: WorkerReply) => {
        if (reply.type === 'ready') {
          slot.ready = true;
          resolve();
        } else {
          const job = slot.inFlight.get(reply.id);
          if (job === undefined) return;
          slot.inFlight.delete(reply.id);
          // A short, failed or mismatched answer is not trusted: every envelope must get its own result.
          if (job.mode === 'check' && reply.type === 'done' && reply.results.length === job.envelopes.length) job.done(reply.results);
          else if (job.mode === 'signatures' && reply.type === 'verified' && reply.verdicts.length === job.pending.length) this.settleSignatures(job, reply.verdicts);
          else this.runInline(job);
        }
        this.pump();
      });
      // The worker exits after an uncaught error; 'exit' recovers its chunks.
      slot.worker.on('error', () => undefined);
      // A reply that cannot be deserialized cannot be matched to its chunk: retry them all.
      slot.worker.on('messageerror', () => void slot.worker.terminate());
      slot.worker.on('exit', (code) => {
        this.slots.delete(slot);
        for (const job of slot.inFlight.values()) this.runInline(job);
        slot.inFlight.clear();
        if (!slot.ready) {
          reject(new Error(`verify worker exited with code ${code} before it was ready`));
        } else if (!this.closed) {
          this.restarts++;
          // A replacement that cannot start leaves the pool smaller; with none left, batches run inline.
          this.spawn().catch(() => undefined);
        }
        this.pump();
      });
    });
  }

  /**
   * Hands work to ready workers, round-robin: waiting submissions first, spread over the room
   * the submission workers have (the first `submissionWorkers` ready ones, SUBMISSION_DEPTH
   * messages each at most), then queued batch chunks, to any worker with fewer than
   * PIPELINE_DEPTH messages in flight.
   */
  private pump(): void {
    if (this.slots.size === 0) {
      for (const job of this.queue.splice(0)) this.runInline(job);
      if (this.singles.length > 0) this.runInline(this.takeSingles(this.singles.length));
      return;
    }
    const ready = [...this.slots].filter((slot) => slot.ready);
    const forSubmissions = ready.slice(0, this.options.submissionWorkers);
    const room = forSubmissions.reduce((sum, slot) => sum + Math.max(0, SUBMISSION_DEPTH - slot.inFlight.size), 0);
    const singlesPerMessage = Math.min(MAX_SINGLES_PER_CHUNK, Math.ceil(this.singles.length / Math.max(1, room)));
    let posted = true;
    while (posted && (this.singles.length > 0 || this.queue.length > 0)) {
      posted = false;
      for (const slot of ready) {
        const takesSubmissions = this.singles.length > 0 && forSubmissions.includes(slot);
        if (slot.inFlight.size >= (takesSubmissions ? SUBMISSION_DEPTH : PIPELINE_DEPTH)) continue;
        const job = takesSubmissions ? this.takeSingles(singlesPerMessage) : this.queue.shift();
        if (job === undefined) continue;
        this.post(slot, job);
        posted = true;
      }
    }
    // A busy worker keeps the process alive until its answer is in; an idle one does not.
    // Once closing, every worker stays ref'd until its exit, so `close()` can settle.
    for (const slot of ready) {
      if (slot.inFlight.size > 0 || this.closed) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  private post(slot: Slot, job: Job): void {
    try {
      if (job.mode === 'signatures') {
        const signatures = packSignatures(job.pending);
        slot.worker.postMessage({ id: job.id, signatures, count: job.pending.length } satisfies ChunkRequest, [signatures]);
      } else if (this.options.transport === 'clone') {
        slot.worker.postMessage({ id: job.id, envelopes: job.envelopes } satisfies ChunkRequest);
      } else {
        // Each submission's text was made when it arrived (see `check`); joined into the array's.
        slot.worker.postMessage({ id: job.id, json: `[${job.texts.join(',')}]` } satisfies ChunkRequest);
      }
    } catch {
      // Not JSON (a BigInt, a cycle, a throwing getter) or not cloneable: inline gives each its report.
      this.runInline(job);
      return;
    }
    slot.posted++;
    slot.inFlight.set(job.id, job);
  }

  private runInline(job: Job): void {
    this.chunksInline++;
    if (job.mode === 'signatures') job.done(job.envelopes.map((raw) => verifySafely(this.inline, raw)));
    else job.done(job.envelopes.map((raw) => checkSafely(this.inline, raw)));
  }

  /** The last batch chunk still waiting for a worker, taken off the queue. */
  private takeQueuedSignatures(): SignatureJob | undefined {
    for (let i = this.queue.length - 1; i >= 0; i--) {
      const job = this.queue[i]!;
      if (job.mode === 'signatures') {
        this.queue.splice(i, 1);
        return job;
      }
    }
    return undefined;
  }

  /** Signature verdicts on this thread, as a worker gives them (verify-worker.ts). */
  private verifyHere(pending: readonly PendingSignature[]): Uint8Array {
    return Uint8Array.from(pending, ({ publicKey, message, signature }) => signatureVerdictByte(this.inline.verifier, publicKey, message, signature));
  }

  /** Reports from a worker's verdicts; a signature whose verifier threw is verified again here. */
  private settleSignatures(job: SignatureJob, verdicts: Uint8Array): void {
    job.done(
      job.pending.map((pending, i) =>
        verdicts[i] === SIGNATURE.THREW ? verifySafely(this.inline, job.envelopes[i]) : toReport(signatureVerdict(pending, verdicts[i] === SIGNATURE.VALID)),
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

/** Only plain objects can be envelopes; everything else fails the shape check at once. */
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

function isPlainObject(value: unknown): boolean {
  try {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
    const proto: unknown = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  } catch {
    return false; // a Proxy whose traps throw: inline gives it its own report
  }
}
