import type { Worker } from 'node:worker_threads';

/** What the pool needs of a worker thread; tests hand it in-process fakes through `spawn`. */
export type PoolWorker = Pick<Worker, 'postMessage' | 'terminate' | 'ref' | 'unref'> & {
  on(event: 'message', listener: (message: unknown) => void): unknown;
  on(event: 'error' | 'messageerror', listener: (error: unknown) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
};

/** One message's worth of work for a worker, from one of the pool's users. */
export interface PoolJob {
  /** The message (the pool adds `id`) and what to transfer with it; may throw, then `inline` runs. */
  message(): { readonly body: object; readonly transfer?: readonly ArrayBuffer[] };
  /** Takes the worker's reply; false when it is not a whole, right answer (then `inline` runs). */
  settle(reply: { readonly type: string; readonly id: number }): boolean;
  /** Does the same work on this thread: no worker could take it, or its worker died or answered wrongly. */
  inline(): void;
}

/** Work waiting for a worker, kept by a pool user; the pool asks for it when a worker has room. */
export interface Lane {
  /** Lanes of a higher priority are served first: at each worker the first lane with work decides. */
  readonly priority: number;
  /** Messages in flight per worker, at most, for this lane's work. */
  readonly depth: number;
  /** How many workers take this lane's work (the first ready ones); all when absent. */
  readonly workers?: number;
  hasWork(): boolean;
  /**
   * Called as the pool starts handing out work, with how many more messages this lane's
   * workers take now, in all; gives the lane's next job each time it is called after that.
   */
  dispense(room: number): () => PoolJob | undefined;
}

export interface WorkerPoolOptions {
  /** Worker threads, at least one. */
  readonly size: number;
  /** Starts one worker; it posts `{type: 'ready'}` once it can take work. */
  readonly spawn: () => PoolWorker;
}

interface Slot {
  readonly worker: PoolWorker;
  ready: boolean;
  readonly inFlight: Map<number, PoolJob>;
  /** Messages posted to it, for stats. */
  posted: number;
}

/**
 * A fixed set of worker threads and the order in which they are given work. Its users (the
 * submission checker, the batch verifier) keep their own waiting work as lanes, served by
 * priority: at each worker the first lane with work decides, up to that lane's depth.
 *
 * Never loses a job: one that cannot be posted, or whose worker dies or answers wrongly, is
 * done inline once, and a dead worker is replaced. Workers are unref'd while idle, so a
 * forgotten pool does not keep the process alive; `close()` terminates them, and later jobs
 * run inline.
 */
export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly lanes: Lane[] = [];
  private nextId = 0;
  private closed = false;
  private restarts = 0;
  private jobsInline = 0;

  private constructor(private readonly options: WorkerPoolOptions) {}

  /** Starts every worker and waits until each is ready; throws (and stops the others) if one cannot start. */
  static async start(options: WorkerPoolOptions): Promise<WorkerPool> {
    if (!Number.isInteger(options.size) || options.size < 1) throw new RangeError(`pool size must be ≥ 1 (got ${options.size})`);
    const pool = new WorkerPool(options);
    try {
      await Promise.all(Array.from({ length: options.size }, () => pool.spawn()));
    } catch (error) {
      await pool.close();
      throw error;
    }
    return pool;
  }

  addLane(lane: Lane): void {
    this.lanes.push(lane);
    this.lanes.sort((a, b) => b.priority - a.priority);
  }

  /** Live workers: 0 once closed or when every one died and none could be restarted. */
  get size(): number {
    return this.slots.size;
  }

  /** Whether jobs can go to a worker now (else they would run inline). */
  get open(): boolean {
    return this.slots.size > 0 && !this.closed;
  }

  get stats(): { readonly workers: number; readonly restarts: number; readonly jobsInline: number; readonly messagesPerWorker: readonly number[] } {
    return { workers: this.slots.size, restarts: this.restarts, jobsInline: this.jobsInline, messagesPerWorker: [...this.slots].map((slot) => slot.posted) };
  }

  /**
   * Hands waiting work to ready workers, round-robin, until no worker has room for any lane's
   * next job. With no worker left, every lane's work runs inline.
   */
  pump(): void {
    if (this.slots.size === 0) {
      for (const lane of this.lanes) {
        const next = lane.dispense(1);
        for (let job = next(); job !== undefined; job = next()) this.runInline(job);
      }
      return;
    }
    const ready = [...this.slots].filter((slot) => slot.ready);
    const dispensers = this.lanes.map((lane) => {
      const slots = lane.workers === undefined ? ready : ready.slice(0, lane.workers);
      return lane.dispense(
        Math.max(
          1,
          slots.reduce((room, slot) => room + Math.max(0, lane.depth - slot.inFlight.size), 0),
        ),
      );
    });
    let posted = true;
    while (posted) {
      posted = false;
      ready.forEach((slot, index) => {
        const l = this.lanes.findIndex((lane) => lane.hasWork() && index < (lane.workers ?? Infinity));
        if (l < 0 || slot.inFlight.size >= this.lanes[l]!.depth) return;
        const job = dispensers[l]!();
        if (job === undefined) return;
        this.post(slot, job);
        posted = true;
      });
    }
    // A busy worker keeps the process alive until its answer is in; an idle one does not.
    // Once closing, every worker stays ref'd until its exit, so `close()` can settle.
    for (const slot of ready) {
      if (slot.inFlight.size > 0 || this.closed) slot.worker.ref();
      else slot.worker.unref();
    }
  }

  /** Terminates the workers. Jobs in flight are finished inline; later ones run inline. */
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

  /** Starts one worker; resolves once it is ready, rejects if it exits before. */
  private spawn(): Promise<void> {
    const slot: Slot = { worker: this.options.spawn(), ready: false, inFlight: new Map(), posted: 0 };
    this.slots.add(slot);
    return new Promise((resolve, reject) => {
      slot.worker.on('message', (message) => {
        const reply = message as { type: string; id: number };
        if (reply.type === 'ready') {
          slot.ready = true;
          resolve();
        } else {
          const job = slot.inFlight.get(reply.id);
          if (job === undefined) return;
          slot.inFlight.delete(reply.id);
          // A short, failed or mismatched answer is not trusted: every item must get its own result.
          if (!job.settle(reply)) this.runInline(job);
        }
        this.pump();
      });
      // The worker exits after an uncaught error; 'exit' recovers its jobs.
      slot.worker.on('error', () => undefined);
      // A reply that cannot be deserialized cannot be matched to its job: redo them all.
      slot.worker.on('messageerror', () => void slot.worker.terminate());
      slot.worker.on('exit', (code) => {
        this.slots.delete(slot);
        for (const job of slot.inFlight.values()) this.runInline(job);
        slot.inFlight.clear();
        if (!slot.ready) {
          reject(new Error(`worker exited with code ${code} before it was ready`));
        } else if (!this.closed) {
          this.restarts++;
          // A replacement that cannot start leaves the pool smaller; with none left, work runs inline.
          this.spawn().catch(() => undefined);
        }
        this.pump();
      });
    });
  }

  private post(slot: Slot, job: PoolJob): void {
    const id = this.nextId++;
    try {
      const { body, transfer } = job.message();
      slot.worker.postMessage({ ...body, id }, transfer as ArrayBuffer[] | undefined);
    } catch {
      // A message that cannot be made or cloned: inline gives each item its own result.
      this.runInline(job);
      return;
    }
    slot.posted++;
    slot.inFlight.set(id, job);
  }

  private runInline(job: PoolJob): void {
    this.jobsInline++;
    job.inline();
  }
}
