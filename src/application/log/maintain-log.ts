import type * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../ports/clock.js';
import type { LogLease } from '../ports/log-lease.js';
import type { AdvanceLog, AdvanceResult } from './advance-log.js';
import type { LogMaintenanceFailure } from './log-failures.js';

/** What one tick did: nothing (another instance holds the lease), or the log's advance. */
export type TickOutcome = { readonly _tag: 'NotLeader' } | { readonly _tag: 'Advanced'; readonly result: E.Either<LogMaintenanceFailure, AdvanceResult> };

/**
 * One tick of the log's upkeep on this instance: take (or renew) the lease, and if it is ours,
 * integrate what was sequenced and sign a checkpoint of it. Every instance ticks; the lease
 * makes one of them do the work, and another takes over once a holder stops renewing.
 */
export class MaintainLog {
  constructor(
    private readonly lease: LogLease,
    private readonly advance: AdvanceLog,
    private readonly clock: Clock,
    private readonly holder: string,
    private readonly leaseMs: number,
    /** Called, not awaited, after each advance this instance made (the witnesses are asked from there); it must not throw. */
    private readonly afterAdvance: () => void = () => undefined,
  ) {}

  async tick(): Promise<TickOutcome> {
    if (!(await this.lease.acquire(this.holder, this.clock.nowMs(), this.leaseMs))) return { _tag: 'NotLeader' };
    const result = await this.advance.execute();
    if (result._tag === 'Right') this.afterAdvance();
    return { _tag: 'Advanced', result };
  }

  /** Lets another instance take over at once (on a clean stop). */
  release(): Promise<void> {
    return this.lease.release(this.holder);
  }
}
