import { availableParallelism } from 'node:os';
import type { ProofProtocolOptions } from '../crypto/proof-protocol-factory.js';
import { siblingScript, spawnWorker } from './spawn-worker.js';
import type { VerifyWorkerConfig } from './worker-messages.js';
import { WorkerPool } from './worker-pool.js';

export interface VerifyPoolOptions {
  /** Worker threads; default os.availableParallelism(). */
  readonly size?: number;
  /** Every worker builds its protocol with these, as the inline path must, so that all judge alike. */
  readonly protocol?: ProofProtocolOptions;
  /** How far below the event loop's priority the workers run (see thread-priority.ts); default 0. */
  readonly niceIncrement?: number;
}

/** A pool of verify workers (verify-worker.ts), for a WorkerProofChecker and a WorkerBatchVerifier to share. */
export function startVerifyPool(options: VerifyPoolOptions = {}): Promise<WorkerPool> {
  const script = siblingScript(import.meta.url, 'verify-worker');
  const config: VerifyWorkerConfig = { protocol: options.protocol ?? {} };
  const niceIncrement = options.niceIncrement ?? 0;
  return WorkerPool.start({ size: options.size ?? availableParallelism(), spawn: () => spawnWorker(script, config, { niceIncrement }) });
}
