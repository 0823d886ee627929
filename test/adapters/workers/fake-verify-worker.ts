import { EventEmitter } from 'node:events';
import type { ProofProtocol } from '../../../src/application/proofs/proof-protocol.js';
import { checkSafely } from '../../../src/adapters/crypto/inline-batch-verifier.js';
import { SIGNATURE_RECORD_BYTES, signatureVerdictByte, type WorkerReply } from '../../../src/adapters/workers/worker-messages.js';
import type { PoolWorker } from '../../../src/adapters/workers/worker-pool.js';

export type Request = { readonly id: number; readonly json: string } | { readonly id: number; readonly signatures: ArrayBuffer; readonly count: number };

/**
 * A verify worker on this thread, for tests of the pool's scheduling: it answers as
 * verify-worker.ts does, but only when the test lets it. Nothing depends on how fast a
 * thread runs, so what the pool sends where, and when, is the same on a busy machine.
 */
export class FakeVerifyWorker extends EventEmitter implements PoolWorker {
  /** Every request posted to it, in order. */
  readonly received: Request[] = [];
  private readonly held: Request[] = [];
  private holding: boolean;
  private exited = false;

  constructor(
    private readonly protocol: ProofProtocol,
    options: {
      readonly hold?: boolean;
      readonly answer?: (request: Request) => WorkerReply[] | 'crash';
      /** Exits with code 2 instead of becoming ready, as a worker whose script fails to load. */
      readonly failToStart?: boolean;
    } = {},
  ) {
    super();
    this.holding = options.hold ?? false;
    if (options.answer) this.answer = options.answer;
    if (options.failToStart) this.exit(2);
    else setImmediate(() => this.emit('message', { type: 'ready' } satisfies WorkerReply));
  }

  /** The answers to a request: what verify-worker.ts answers, unless the test says otherwise. */
  private answer = (request: Request): WorkerReply[] | 'crash' => [this.rightAnswer(request)];

  postMessage(message: unknown): void {
    if (this.exited) throw new Error('worker exited');
    const request = message as Request;
    this.received.push(request);
    if (this.holding) this.held.push(request);
    else this.reply(request);
  }

  /** Answers what it holds, in order, and everything after at once. */
  release(): void {
    this.holding = false;
    for (const request of this.held.splice(0)) this.reply(request);
  }

  get heldCount(): number {
    return this.held.length;
  }

  async terminate(): Promise<number> {
    this.exit(1);
    return 1;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }

  private reply(request: Request): void {
    const answers = this.answer(request);
    setImmediate(() => {
      if (this.exited) return;
      if (answers === 'crash') return this.exit(3);
      for (const answer of answers) this.emit('message', answer);
    });
  }

  private exit(code: number): void {
    if (this.exited) return;
    this.exited = true;
    setImmediate(() => this.emit('exit', code));
  }

  rightAnswer(request: Request): WorkerReply {
    if ('json' in request)
      return { type: 'done', id: request.id, results: (JSON.parse(request.json) as unknown[]).map((raw) => checkSafely(this.protocol, raw)) };
    const records = new Uint8Array(request.signatures);
    const verdicts = new Uint8Array(request.count);
    for (let i = 0, at = 0; i < request.count; i++, at += SIGNATURE_RECORD_BYTES) {
      verdicts[i] = signatureVerdictByte(
        this.protocol.verifier,
        records.subarray(at, at + 32),
        records.subarray(at + 32, at + 96),
        records.subarray(at + 96, at + 160),
      );
    }
    return { type: 'verified', id: request.id, verdicts };
  }
}

/** A pool's `spawn` that makes fakes and keeps them, in the order they started. */
export function fakeWorkers(protocol: ProofProtocol, options: ConstructorParameters<typeof FakeVerifyWorker>[1] = {}) {
  const started: FakeVerifyWorker[] = [];
  return {
    started,
    spawn: (): PoolWorker => {
      const worker = new FakeVerifyWorker(protocol, options);
      started.push(worker);
      return worker;
    },
  };
}

/** Resolves once `condition` holds, looking again at each turn of the event loop (no clock involved). */
export async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
}
