import type { Knex } from 'knex';
import { parseRfc3339 } from '../src/domain/protocol/datetime.js';

/**
 * Proofs signed with a `created_at` in years 0000–0099 had their `created_at_ms` (the list
 * order, the date filters and the cursor) counted as if in 1900–1999, as Date.UTC counts those
 * years. The parser now reads them as written; this puts the rows it stored before on the
 * same footing, so that lists and filters agree for old and new proofs alike.
 *
 * Only `created_at_ms` changes, recomputed from the `created_at` text the proof was signed
 * with; the envelope and everything else of the row stay as they are. Every such date starts
 * with "00", whatever its form.
 */
export async function up(knex: Knex): Promise<void> {
  const rows: Array<{ id: number | string; created_at: string }> = await knex('proofs').select('id', 'created_at').where('created_at', 'like', '00%');
  for (const row of rows) {
    const ms = parseRfc3339(row.created_at);
    if (ms !== null) await knex('proofs').where('id', row.id).update({ created_at_ms: ms });
  }
}

/** Nothing to undo: the old values were wrong, and a rollback of the schema needs none of them. */
export async function down(): Promise<void> {}
