import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { toRecord } from '../src/adapters/sql/proof-rows.js';
import type { PendingRow, ProofWriter } from '../src/adapters/sql/proof-writer.js';
import { spawnWorker } from '../src/adapters/workers/spawn-worker.js';
import type { ProofRecord } from '../src/domain/proof/proof-record.js';
import { inSample } from './scale-data.js';

/** Proofs a batch: one INSERT statement of the SQLite writer (500 rows at most). */
const BATCH = 400;

/**
 * Makes the scale proofs on worker threads (SCALE_WORKERS, default one per core): signing and
 * hashing, not writing, took most of a single-threaded load's time. Batches come back in any
 * order and are written in order, one at a time, through the database's own batch writer, so
 * the proofs arrive in created_at order as a fleet's do.
 */
export class ScaleLoader {
  private readonly pending = new Map<number, { resolve(rows: PendingRow[]): void; reject(err: unknown): void }>();

  private constructor(private readonly workers: readonly Worker[]) {
    for (const worker of workers) {
      worker.on('message', (m: { id: number; rows: PendingRow[] }) => {
        this.pending.get(m.id)?.resolve(m.rows);
        this.pending.delete(m.id);
      });
      // A worker that fails fails the load, rather than leaving it waiting for a batch.
      worker.on('error', (err) => {
        for (const p of this.pending.values()) p.reject(err);
        this.pending.clear();
      });
    }
  }

  static async start(count = Number(process.env.SCALE_WORKERS ?? availableParallelism())): Promise<ScaleLoader> {
    const workers = Array.from({ length: Math.max(1, count) }, () => spawnWorker(new URL('./scale-worker.ts', import.meta.url), null));
    await Promise.all(workers.map((w) => new Promise((resolve, reject) => (w.once('message', resolve), w.once('error', reject)))));
    return new ScaleLoader(workers);
  }

  get threads(): number {
    return this.workers.length;
  }

  /**
   * Loads proofs [from, to) of `total` through `writer`; adds the latency routes' sample.
   * Answers the seconds it took, the CPU seconds of this process (every thread) and the
   * seconds spent waiting for the writer. `every100k`, when given, runs after each 100,000 proofs written.
   */
  async load(
    writer: ProofWriter,
    from: number,
    to: number,
    total: number,
    sample: ProofRecord[],
    every100k?: () => Promise<void>,
  ): Promise<{ seconds: number; cpuSeconds: number; writeSeconds: number }> {
    const start = performance.now();
    const cpu = process.cpuUsage();
    let writing = 0;
    const starts: number[] = [];
    for (let i = from; i < to; i += BATCH) starts.push(i);
    // Two batches in flight per worker: one being made while the other waits to be written.
    const inFlight = new Map<number, Promise<PendingRow[]>>();
    let next = 0;
    const ask = () => {
      if (next >= starts.length) return;
      const id = next++;
      const worker = this.workers[id % this.workers.length]!;
      inFlight.set(
        id,
        new Promise(
          (resolve, reject) => (
            this.pending.set(id, { resolve, reject }),
            worker.postMessage({ id, from: starts[id]!, to: Math.min(to, starts[id]! + BATCH), total })
          ),
        ),
      );
    };
    for (let k = 0; k < this.workers.length * 2; k++) ask();
    for (let id = 0; id < starts.length; id++) {
      const rows = await inFlight.get(id)!;
      inFlight.delete(id);
      ask();
      rows.forEach((p, j) => inSample(starts[id]! + j, p.row.wallet) && sample.push(toRecord(p.row)));
      const writeStart = performance.now();
      await writer.write(rows);
      writing += performance.now() - writeStart;
      if (every100k !== undefined && id % 250 === 249) await every100k();
      if (id % 250 === 0)
        process.stderr.write(
          `  loaded ${(starts[id]! - from).toLocaleString('en')} of ${(to - from).toLocaleString('en')} (${Math.round((performance.now() - start) / 1000)} s)\n`,
        );
    }
    const used = process.cpuUsage(cpu);
    return {
      seconds: Math.round((performance.now() - start) / 1000),
      cpuSeconds: Math.round((used.user + used.system) / 1e6),
      writeSeconds: Math.round(writing / 1000),
    };
  }

  close(): Promise<void> {
    return Promise.all(this.workers.map((w) => w.terminate())).then(() => undefined);
  }
}
