import type { LogLease } from '../../application/ports/log-lease.js';
import type { Database } from './database.js';
import { ensureLogState, LOG_STATE_ID } from './knex-log-state.js';

/**
 * The log's lease in `log_state`: one conditional update takes it when it is free, expired or
 * already ours. The database decides, so two instances never both think they hold it (as long
 * as their clocks agree within the lease's length).
 */
export class KnexLogLease implements LogLease {
  constructor(private readonly db: Pick<Database, 'knex'>) {}

  async acquire(holder: string, nowMs: number, ttlMs: number): Promise<boolean> {
    await ensureLogState(this.db.knex);
    const taken = await this.db
      .knex('log_state')
      .where('id', LOG_STATE_ID)
      .andWhere((q) => q.whereNull('lease_holder').orWhere('lease_holder', holder).orWhere('lease_until_ms', '<', nowMs))
      .update({ lease_holder: holder, lease_until_ms: nowMs + ttlMs });
    return taken === 1;
  }

  async release(holder: string): Promise<void> {
    await this.db.knex('log_state').where({ id: LOG_STATE_ID, lease_holder: holder }).update({ lease_holder: null, lease_until_ms: null });
  }
}
