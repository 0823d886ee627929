import type { JobLease } from '../../application/ports/job-lease.js';
import type { Database } from './database.js';

/**
 * Job leases in `leases`, a row per job: one conditional update takes it when it is free,
 * expired or already the holder's, so the database decides and two instances never both hold
 * it (as long as their clocks agree within the lease's length).
 */
export class KnexJobLease implements JobLease {
  constructor(private readonly db: Pick<Database, 'knex'>) {}

  async acquire(job: string, holder: string, nowMs: number, ttlMs: number): Promise<boolean> {
    // The row appears on the job's first acquire. Two first acquirers meet on its key: one
    // inserts, the other inserts nothing (no error), and both go on to the same update.
    await this.db.knex('leases').insert({ name: job, holder: null, until_ms: null }).onConflict('name').ignore();
    const taken = await this.db
      .knex('leases')
      .where('name', job)
      .andWhere((q) => q.whereNull('holder').orWhere('holder', holder).orWhere('until_ms', '<', nowMs))
      .update({ holder, until_ms: nowMs + ttlMs });
    return taken === 1;
  }

  async release(job: string, holder: string): Promise<void> {
    await this.db.knex('leases').where({ name: job, holder }).update({ holder: null, until_ms: null });
  }
}
