import type { LogCosignatures, WitnessRecord } from '../../application/ports/log-cosignatures.js';
import type { Database } from './database.js';

interface WitnessRow {
  witness: string;
  last_cosigned_size: number | string | null;
  last_cosigned_at_ms: number | string | null;
  last_error: string | null;
}

const numberOrNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** The log's cosignatures (`log_cosignatures`) and its witnesses' state (`log_witnesses`), migration 018. */
export class KnexLogCosignatures implements LogCosignatures {
  constructor(private readonly db: Pick<Database, 'knex'>) {}

  async record(witness: string, treeSize: number, line: string, atMs: number): Promise<void> {
    await this.db.knex.transaction(async (trx) => {
      await trx('log_cosignatures')
        .insert({ tree_size: treeSize, witness, line, cosigned_at_ms: atMs })
        .onConflict(['tree_size', 'witness'])
        .merge(['line', 'cosigned_at_ms']);
      const row = (await trx('log_witnesses').select('last_cosigned_size').where({ witness }).first()) as Pick<WitnessRow, 'last_cosigned_size'> | undefined;
      const previous = row ? numberOrNull(row.last_cosigned_size) : null;
      const size = previous === null ? treeSize : Math.max(previous, treeSize);
      await trx('log_witnesses')
        .insert({ witness, last_cosigned_size: size, last_cosigned_at_ms: atMs, last_error: null, last_error_at_ms: null })
        .onConflict('witness')
        .merge(['last_cosigned_size', 'last_cosigned_at_ms', 'last_error', 'last_error_at_ms']);
    });
  }

  async recordError(witness: string, error: string, atMs: number): Promise<void> {
    await this.db
      .knex('log_witnesses')
      .insert({ witness, last_error: error, last_error_at_ms: atMs })
      .onConflict('witness')
      .merge(['last_error', 'last_error_at_ms']);
  }

  async linesAt(treeSize: number): Promise<readonly string[]> {
    const rows = (await this.db.knex('log_cosignatures').select('line').where({ tree_size: treeSize }).orderBy('witness')) as Array<{ line: string }>;
    return rows.map((r) => r.line);
  }

  async witnesses(): Promise<readonly WitnessRecord[]> {
    const rows = (await this.db
      .knex('log_witnesses')
      .select('witness', 'last_cosigned_size', 'last_cosigned_at_ms', 'last_error')
      .orderBy('witness')) as WitnessRow[];
    return rows.map((r) => ({
      name: r.witness,
      lastCosignedSize: numberOrNull(r.last_cosigned_size),
      lastCosignedAtMs: numberOrNull(r.last_cosigned_at_ms),
      lastError: r.last_error,
    }));
  }
}
