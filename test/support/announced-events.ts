import type { Database } from '../../src/adapters/sql/database.js';

/**
 * The events a proof write announced, as rows two writers can be compared by: in a fixed
 * order, each `proof.accepted`'s log index checked against the log and left out (writers may
 * number a batch's leaves in another order), and the times of status changes left out (a
 * batch's changes are dated by the first proof of the device each writer meets).
 */
export async function announcedEvents(db: Database): Promise<{ accepted: unknown[]; statuses: unknown[]; devices: unknown[] }> {
  const rows: Array<{ wallet: string; type: string; log_index: number | string | null; data: string }> = await db
    .knex('events')
    .select('wallet', 'type', 'log_index', 'data')
    .orderBy('id');
  const leaves = new Map(
    ((await db.knex('log_leaves').select('leaf_index', 'proof_id')) as Array<{ leaf_index: number | string; proof_id: string }>).map((l) => [
      l.proof_id,
      Number(l.leaf_index),
    ]),
  );
  const accepted: unknown[] = [];
  const statuses: unknown[] = [];
  for (const row of rows) {
    const data = JSON.parse(row.data) as Record<string, unknown>;
    if (row.type === 'proof.accepted') {
      const leaf = leaves.get(data.proof_id as string) ?? null;
      if (data.log_index !== leaf || (row.log_index === null ? null : Number(row.log_index)) !== leaf)
        throw new Error(`proof.accepted of ${String(data.proof_id)} names leaf ${String(data.log_index)}, the log ${String(leaf)}`);
      const { log_index: _logIndex, ...rest } = data;
      accepted.push({ wallet: row.wallet, ...rest });
    } else if (row.type === 'device.status_changed') {
      if (typeof data.last_seen_at !== 'string' || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(data.last_seen_at))
        throw new Error(`last_seen_at ${String(data.last_seen_at)}`);
      const { last_seen_at: _at, ...rest } = data;
      statuses.push({ wallet: row.wallet, ...rest });
    } else throw new Error(`a proof write announced ${row.type}`);
  }
  const order = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
  const devices = await db.knex('devices').select('wallet', 'device_id', 'announced_status').orderBy(['wallet', 'device_id']);
  return { accepted: accepted.sort(order), statuses: statuses.sort(order), devices };
}
