import type { Database } from './database.js';

/**
 * How many proofs the database holds, read in one step of the key's index: proofs are never
 * deleted, so the largest id is their number (on PostgreSQL, plus the ids of inserts that
 * rolled back, a few at most).
 */
export async function storedProofs(db: Pick<Database, 'reader'>): Promise<number> {
  const row = (await db.reader('proofs').max({ n: 'id' }).first()) as { n: number | string | null } | undefined;
  return row?.n === null || row?.n === undefined ? 0 : Number(row.n);
}
