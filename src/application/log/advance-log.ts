import * as E from 'fp-ts/lib/Either.js';
import type { IntegrateLeaves } from './integrate-leaves.js';
import type { LogMaintenanceFailure } from './log-failures.js';
import type { PublishCheckpoint, PublishResult } from './publish-checkpoint.js';

export interface AdvanceResult extends PublishResult {
  readonly integrated: number;
}

/**
 * One tick of the log: integrate what was sequenced, in steps, then publish a checkpoint of
 * it. Run by one instance at a time (under a lease), every LOG_CHECKPOINT_INTERVAL_MS, so
 * every acknowledged proof is in a published checkpoint within one interval (plus a tick).
 */
export class AdvanceLog {
  constructor(
    private readonly integrate: IntegrateLeaves,
    private readonly publish: PublishCheckpoint,
    /** Integration steps per tick at most, so a huge backlog still publishes as it goes. */
    private readonly maxSteps = 16,
    /**
     * Puts on disk every leaf integrated so far, where commits do not reach it by themselves
     * (SQLite with SQLITE_SYNCHRONOUS=normal): a checkpoint is signed only over leaves that
     * would survive a power cut, or the log might have to publish another root for a size.
     */
    private readonly makeDurable: () => Promise<void> = async () => undefined,
  ) {}

  async execute(): Promise<E.Either<LogMaintenanceFailure, AdvanceResult>> {
    let integrated = 0;
    for (let step = 0; step < this.maxSteps; step++) {
      const result = await this.integrate.execute();
      if (E.isLeft(result)) return result;
      const added = result.right.toSize - result.right.fromSize;
      integrated += added;
      if (added === 0) break;
    }
    if (integrated > 0) await this.makeDurable();
    const published = await this.publish.execute();
    return E.isLeft(published) ? published : E.right({ ...published.right, integrated });
  }
}
