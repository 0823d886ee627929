import type { Knex } from 'knex';

/** The one row of `log_state` (migrations/008_transparency_log.ts). */
export const LOG_STATE_ID = 1;

/** Makes sure the state row exists: a write, so on SQLite it also takes the write lock first. */
export function ensureLogState(q: Knex | Knex.Transaction): Promise<unknown> {
  return q('log_state').insert({ id: LOG_STATE_ID, integrated_size: 0 }).onConflict('id').ignore();
}

/** A bigint column as a driver returns it (pg: text) as an exact number. */
export function safeNumber(value: number | string, column: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`${column} holds ${String(value)}, not a size`);
  return n;
}
