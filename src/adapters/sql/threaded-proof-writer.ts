import type { Worker } from 'node:worker_threads';
import { siblingScript, spawnWorker } from '../workers/spawn-worker.js';
import type { Database } from './database.js';
import type { PendingRow, ProofWriter, RowOutcome } from './proof-writer.js';
import { fromWireError, type ProofWriterThreadConfig, type ProofWriterReply } from './proof-writer-messages.js';

/** PostgreSQL connections of the thread: room for stores configured with several writers. */
const POSTGRES_WRITERS = 4;

export interface ThreadedProofWriterOptions {
  /** Where the thread's database driver warnings go, one line each (see DatabaseOptions). */
  readonly onDriverWarning?: (message: string) => void;
  /** How far below the event loop's priority the thread runs (see thread-priority.ts); default 0. */
  readonly niceIncrement?: number;
  /** Sequence proofs into the transparency log (default true). */
  readonly sequence?: boolean;
}

interface InFlight {
  readonly resolve: (outcomes: RowOutcome[]) => void;
  readonly reject: (err: unknown) => void;
}

/**
 * Runs the proof writes on a writer thread with its own connection(s) (see
 * proof-writer-thread.ts): one message per batch each way instead of five database round trips
 * on the HTTP event loop, and the query building and driver work move to the other core.
 *
 * A batch whose thread dies is rejected (the group commit then retries its proofs one by one,
 * on a new thread). On SQLite the thread's connection is a second writer beside the main one;
 * SQLite serializes them with its write lock and `busy_timeout`, and transactions of ours that
 * read before they write take the lock first (see knex-groups.ts).
 */
export class ThreadedProofWriter implements ProofWriter {
  private worker: Promise<Worker> | null = null;
  private readonly inFlight = new Map<number, InFlight>();
  private nextId = 0;
  private closed = false;

  private constructor(
    private readonly config: ProofWriterThreadConfig,
    private readonly script: URL,
    private readonly options: ThreadedProofWriterOptions,
  ) {}

  /** Starts the thread and waits until it has opened the database; throws if it cannot. */
  static async start(
    config: ProofWriterThreadConfig,
    options: ThreadedProofWriterOptions = {},
    script = siblingScript(import.meta.url, 'proof-writer-thread'),
  ): Promise<ThreadedProofWriter> {
    const writer = new ThreadedProofWriter(config, script, options);
    await writer.thread();
    return writer;
  }

  async write(batch: readonly PendingRow[]): Promise<RowOutcome[]> {
    if (this.closed) throw new Error('the proof writer is closed');
    const worker = await this.thread();
    const id = this.nextId++;
    return new Promise<RowOutcome[]>((resolve, reject) => {
      this.inFlight.set(id, { resolve, reject });
      worker.ref();
      try {
        worker.postMessage({ id, batch });
      } catch (err) {
        // Not cloneable: this batch fails (and is retried row by row); nothing waits for it.
        this.inFlight.delete(id);
        if (this.inFlight.size === 0) worker.unref();
        reject(new Error(`the batch could not be sent to the writer thread: ${(err as { message?: string }).message ?? String(err)}`));
      }
    });
  }

  /**
   * A writer thread for `db`'s data: one connection on SQLite, a few on PostgreSQL (room for a
   * store configured with several writers); null for `sqlite::memory:`, which no other
   * connection can reach.
   */
  static async forDatabase(
    db: Pick<Database, 'sharedUrl' | 'dialect' | 'schema' | 'synchronous'>,
    options: ThreadedProofWriterOptions = {},
  ): Promise<ThreadedProofWriter | null> {
    if (db.sharedUrl === null) return null;
    return ThreadedProofWriter.start(
      {
        databaseUrl: db.sharedUrl,
        connections: db.dialect === 'sqlite' ? 1 : POSTGRES_WRITERS,
        sequence: options.sequence ?? true,
        ...(db.schema !== undefined ? { schema: db.schema } : {}),
        ...(db.synchronous !== undefined ? { synchronous: db.synchronous } : {}),
      },
      options,
    );
  }

  /** Lets batches in flight finish, then closes the thread's connections and the thread. */
  async close(): Promise<void> {
    this.closed = true;
    const worker = this.worker && (await this.worker.catch(() => null));
    if (!worker) return;
    while (this.inFlight.size > 0) await new Promise((resolve) => setTimeout(resolve, 5));
    worker.ref();
    const exited = new Promise((resolve) => worker.once('exit', resolve));
    worker.postMessage('close');
    await exited;
  }

  private thread(): Promise<Worker> {
    this.worker ??= this.spawn();
    return this.worker;
  }

  private spawn(): Promise<Worker> {
    const worker = spawnWorker(this.script, this.config, { niceIncrement: this.options.niceIncrement ?? 0 });
    return new Promise<Worker>((resolve, reject) => {
      worker.on('message', (reply: ProofWriterReply) => {
        if (reply.type === 'warning') {
          this.options.onDriverWarning?.(reply.message);
        } else if (reply.type === 'ready') {
          worker.unref();
          resolve(worker);
        } else if (reply.type === 'open-failed') {
          reject(fromWireError(reply.error));
          void worker.terminate();
        } else {
          const job = this.inFlight.get(reply.id);
          if (!job) return;
          this.inFlight.delete(reply.id);
          if (reply.type === 'done') job.resolve(reply.outcomes);
          else job.reject(fromWireError(reply.error));
          // An idle writer thread must not keep the process alive.
          if (this.inFlight.size === 0) worker.unref();
        }
      });
      worker.on('error', () => undefined); // 'exit' follows and settles everything
      worker.on('exit', (code) => {
        reject(new Error(`the proof writer thread exited with code ${code} before it was ready`));
        this.worker = null;
        const lost = [...this.inFlight.values()];
        this.inFlight.clear();
        for (const job of lost) job.reject(new Error(`the proof writer thread exited with code ${code}`));
      });
    });
  }
}
