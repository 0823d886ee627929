import type { Worker } from 'node:worker_threads';
import type { WebhookRequest, WebhookResponse, WebhookTransport } from '../../application/ports/webhook-transport.js';
import { siblingScript, spawnWorker } from '../workers/spawn-worker.js';
import { DEFAULT_TIMEOUT_MS, type NodeWebhookTransportOptions } from './node-webhook-transport.js';

/** What the sending thread is given: the transport's options a thread can receive (no resolver function). */
export type SenderThreadConfig = Omit<NodeWebhookTransportOptions, 'resolve'>;

/** To the thread: requests to post, or the end. From it: answers, in batches. */
export type SenderMessage =
  | { readonly type: 'post'; readonly posts: ReadonlyArray<{ readonly id: number; readonly request: WebhookRequest; readonly notAfterMs: number }> }
  | { readonly type: 'close' };
export type SenderReply =
  { readonly type: 'answers'; readonly answers: ReadonlyArray<{ readonly id: number; readonly response: WebhookResponse }> } | { readonly type: 'closed' };

export interface ThreadedWebhookTransportOptions {
  /**
   * How far below the event loop the sending thread runs (niceness added, Linux; see
   * thread-priority.ts). Default 0.
   */
  readonly niceIncrement?: number;
}

/**
 * Posts webhooks from a thread of their own (webhook-sender-thread.ts runs the
 * NodeWebhookTransport there), so that sending, which is most of what a delivery costs, does
 * not take the event loop's time from the requests it serves.
 *
 * Run below the event loop's priority, as the other helper threads are, the thread takes the
 * time the requests leave. An attempt's deadline counts from the moment it is handed over, so
 * a thread that gets to it late sends it with less time, or not at all: never after the claim
 * that holds it has run out, when another instance may be sending it.
 *
 * Requests made in one turn of the event loop go to the thread in one message, and answers
 * come back the same way. If the thread dies, the attempts it held come back as failures (the
 * queue retries them, with the same webhook-id) and the next post starts a new thread.
 */
export class ThreadedWebhookTransport implements WebhookTransport {
  private worker: Worker | null = null;
  private readonly waiting = new Map<number, (response: WebhookResponse) => void>();
  private outbox: Array<{ id: number; request: WebhookRequest; notAfterMs: number }> = [];
  private nextId = 0;
  private closed = false;

  constructor(
    private readonly config: SenderThreadConfig,
    private readonly options: ThreadedWebhookTransportOptions = {},
    private readonly script = siblingScript(import.meta.url, 'webhook-sender-thread'),
  ) {}

  post(request: WebhookRequest): Promise<WebhookResponse> {
    if (this.closed) return Promise.resolve(failed('the transport is closed'));
    const id = this.nextId++;
    return new Promise<WebhookResponse>((resolve) => {
      this.waiting.set(id, resolve);
      // The deadline runs from now, not from when the thread gets to it: an attempt never outlives its claim.
      const notAfterMs = Date.now() + (this.config.timeoutMs ?? DEFAULT_TIMEOUT_MS);
      if (this.outbox.push({ id, request, notAfterMs }) === 1) setImmediate(() => this.send());
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker;
    if (!worker) return;
    worker.ref();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage({ type: 'close' } satisfies SenderMessage);
    await exited;
  }

  private send(): void {
    const posts = this.outbox;
    this.outbox = [];
    if (posts.length === 0) return;
    const worker = this.thread();
    worker.ref();
    worker.postMessage({ type: 'post', posts } satisfies SenderMessage);
  }

  private thread(): Worker {
    if (this.worker) return this.worker;
    const worker = spawnWorker(this.script, this.config, { niceIncrement: this.options.niceIncrement ?? 0 });
    worker.on('message', (reply: SenderReply) => {
      if (reply.type !== 'answers') return;
      for (const { id, response } of reply.answers) {
        this.waiting.get(id)?.(response);
        this.waiting.delete(id);
      }
      // A thread with nothing to send must not keep the process alive.
      if (this.waiting.size === 0) worker.unref();
    });
    worker.on('error', () => undefined); // 'exit' follows
    worker.on('exit', (code) => {
      if (this.worker === worker) this.worker = null;
      // The attempts it held are failures: the queue tries them again, under the same webhook-id.
      for (const resolve of this.waiting.values()) resolve(failed(`the sending thread stopped (exit code ${code})`));
      this.waiting.clear();
    });
    this.worker = worker;
    return worker;
  }
}

const failed = (error: string): WebhookResponse => ({ statusCode: null, latencyMs: 0, error, bodyExcerpt: '' });
