import type { WitnessedCheckpoint, WitnessState } from '../../application/ports/witness-state.js';
import { bytesToHex, hexToBytes } from '../../domain/protocol/encoding.js';
import type { Database } from './database.js';

/** The witness's one table, in a database of its own (`witness serve --db`): one row per log origin. */
export const WITNESS_TABLE = 'witness_checkpoints';

interface Row {
  origin: string;
  size: number | string;
  root_hash: string;
}

/**
 * The latest cosigned checkpoint of each log, in `witness_checkpoints`. `advance` is one
 * conditional statement: an insert that the primary key refuses if a row appeared meanwhile,
 * or an update of the row only while it still holds the size and root that were checked. The
 * database decides, so two requests (or two processes on the same file) never both move a log.
 */
export class KnexWitnessState implements WitnessState {
  constructor(private readonly db: Pick<Database, 'knex'>) {}

  /** Creates the table if it is not there yet (at start, before serving). */
  async prepare(): Promise<void> {
    if (await this.db.knex.schema.hasTable(WITNESS_TABLE)) return;
    await this.db.knex.schema.createTable(WITNESS_TABLE, (table) => {
      table.text('origin').primary();
      table.bigInteger('size').notNullable();
      table.string('root_hash', 64).notNullable();
      table.text('note').notNullable();
      table.bigInteger('updated_ms').notNullable();
    });
  }

  async latest(origin: string): Promise<WitnessedCheckpoint | null> {
    const row = (await this.db.knex<Row>(WITNESS_TABLE).select('origin', 'size', 'root_hash').where({ origin }).first()) as Row | undefined;
    return row ? { size: Number(row.size), rootHash: hexToBytes(row.root_hash)! } : null;
  }

  async latestNote(origin: string): Promise<string | null> {
    const row = (await this.db.knex(WITNESS_TABLE).select('note').where({ origin }).first()) as { note: string } | undefined;
    return row?.note ?? null;
  }

  async advance(origin: string, from: WitnessedCheckpoint | null, to: WitnessedCheckpoint & { readonly note: string }, atMs: number): Promise<boolean> {
    const values = { size: to.size, root_hash: bytesToHex(to.rootHash), note: to.note, updated_ms: atMs };
    if (from === null) {
      const inserted = await this.db
        .knex(WITNESS_TABLE)
        .insert({ origin, ...values })
        .onConflict('origin')
        .ignore()
        .returning('origin');
      return (inserted as unknown[]).length === 1;
    }
    const updated = await this.db
      .knex(WITNESS_TABLE)
      .where({ origin, size: from.size, root_hash: bytesToHex(from.rootHash) })
      .update(values);
    return updated === 1;
  }
}
