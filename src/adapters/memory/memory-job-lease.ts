import type { JobLease } from '../../application/ports/job-lease.js';

/** In-memory JobLease for tests and embedding; runs the same contract suite as the SQL lease. */
export class MemoryJobLease implements JobLease {
  private readonly leases = new Map<string, { holder: string; untilMs: number }>();

  async acquire(job: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean> {
    const lease = this.leases.get(job);
    if (lease && lease.holder !== holder && lease.untilMs >= nowMs) return false;
    this.leases.set(job, { holder, untilMs: nowMs + ttlMs });
    return true;
  }

  async release(job: string, holder: string): Promise<void> {
    if (this.leases.get(job)?.holder === holder) this.leases.delete(job);
  }
}
