import type { Knex } from 'knex';
import type { SequencedLeaves } from '../../application/ports/sequenced-leaves.js';
import { bytesToHex, hexToBytes } from '../../domain/protocol/encoding.js';
import type { Database } from './database.js';
import { safeNumber } from './knex-log-state.js';

/**
 * The log's leaves as the proof writers numbered them (`log_leaves`): the leaf data is the
 * proof_id, hex-decoded. Only committed leaves are seen, and the writers number them with no
 * gap, so `count` is max + 1.
 */
export class KnexSequencedLeaves implements SequencedLeaves {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'> & Partial<Pick<Database, 'reader'>>) {
    this.knex = db.reader ?? db.knex;
  }

  async count(): Promise<number> {
    const [row] = (await this.knex('log_leaves').select(this.knex.raw('coalesce(max(leaf_index) + 1, 0) as n'))) as Array<{ n: number | string }>;
    return safeNumber(row?.n ?? 0, 'log_leaves.leaf_index');
  }

  async read(start: number, end: number): Promise<Uint8Array[]> {
    if (end <= start) return [];
    const rows: Array<{ proof_id: string }> = await this.knex('log_leaves')
      .select('proof_id')
      .where('leaf_index', '>=', start)
      .andWhere('leaf_index', '<', end)
      .orderBy('leaf_index');
    if (rows.length !== end - start) throw new RangeError(`leaves ${start}–${end - 1} asked for, ${rows.length} stored`);
    return rows.map((r) => {
      const data = hexToBytes(r.proof_id);
      if (data === null) throw new Error(`log_leaves holds ${r.proof_id}, not a hex proof id`);
      return data;
    });
  }

  async indexOf(data: Uint8Array): Promise<number | null> {
    const row = (await this.knex('log_leaves').select('leaf_index').where('proof_id', bytesToHex(data)).first()) as { leaf_index: number | string } | undefined;
    return row ? safeNumber(row.leaf_index, 'log_leaves.leaf_index') : null;
  }
}
