import type { Knex } from 'knex';
import type { ProofCursor, ProofSortField } from '../../application/ports/proof-store.js';
import type { ProofSummary } from '../../domain/proof/proof-record.js';

/**
 * The orders of a search on SQL: for each sort, the columns of a position in it and the
 * queries (segments) that read a page from a cursor as ranges of one index each. Ids compare
 * by their bytes on both databases.
 */
export class ProofSearchOrder {
  /**
   * How `proof_id` is compared and ordered. Ids are lower-case hex, so byte order is the
   * intended order; PostgreSQL is told so explicitly (the column is also declared `C`, which
   * keeps the indexes usable), SQLite compares bytes by default.
   */
  readonly proofIdKey: string;

  constructor(private readonly postgres: boolean) {
    this.proofIdKey = postgres ? 'proof_id collate "C"' : 'proof_id';
  }

  /** The columns of a sort's position, in order, as selected and as compared. */
  positionColumns(sort: Exclude<ProofSortField, 'robot_id'>): Array<{ name: string; select: string; expression: string }> {
    const time = { name: 'created_at_ms', select: 'created_at_ms', expression: 'created_at_ms' };
    const id = { name: 'proof_id', select: 'proof_id', expression: this.proofIdKey };
    if (sort === 'payload_hash') return [id];
    if (sort === 'task_id') return [{ name: 'task_id', select: 'task_id', expression: this.textKey('task_id') }, time, id];
    return [time, id];
  }

  /**
   * The queries that read a page, in turn, each continuing where the one before ran out: one,
   * except for the robot order from a cursor, where the proofs without a robot id (first in
   * ascending order, last in descending) are a range of their own. Each orders by the columns
   * of one index, so each is one range of it, read in either direction, with no sort.
   */
  segments(sort: ProofSortField, direction: 'asc' | 'desc', after: ProofCursor | undefined, byIndex = true): Segment[] {
    const d = direction;
    // SQLite: a unary + makes the first key an expression, which no index orders.
    const lead = byIndex ? '' : '+';
    const op = d === 'asc' ? '>' : '<';
    const pid = this.proofIdKey;
    const byTime = `created_at_ms ${d}, ${pid} ${d}`;
    switch (sort) {
      case 'created_at':
        return [{ orderBy: byTime, ...(after && { where: (q) => q.whereRaw(`(created_at_ms, ${pid}) ${op} (?, ?)`, [after.createdAtMs, after.proofId]) }) }];
      case 'payload_hash':
        return [{ orderBy: `${lead}${pid} ${d}`, ...(after && { where: (q) => q.whereRaw(`${pid} ${op} ?`, [after.proofId]) }) }];
      case 'task_id': {
        const task = this.textKey('task_id');
        return [
          {
            orderBy: `${lead}${task} ${d}, ${byTime}`,
            ...(after && { where: (q) => q.whereRaw(`(${task}, created_at_ms, ${pid}) ${op} (?, ?, ?)`, [after.key ?? '', after.createdAtMs, after.proofId]) }),
          },
        ];
      }
      case 'robot_id': {
        const robot = this.textKey('robot_id');
        // SQLite orders NULL first; PostgreSQL is told to (its index is declared so, 010_search).
        const nulls = this.postgres ? (d === 'asc' ? ' nulls first' : ' nulls last') : '';
        const byRobot = `${lead}${robot} ${d}${nulls}, ${byTime}`;
        const nullsAfter = (q: Knex.QueryBuilder, a: ProofCursor) =>
          q.whereNull('robot_id').whereRaw(`(created_at_ms, ${pid}) ${op} (?, ?)`, [a.createdAtMs, a.proofId]);
        const robotsAfter = (q: Knex.QueryBuilder, a: ProofCursor) =>
          q.whereRaw(`(${robot}, created_at_ms, ${pid}) ${op} (?, ?, ?)`, [a.key ?? null, a.createdAtMs, a.proofId]);
        if (!after) return [{ orderBy: byRobot }];
        const key = after.key ?? null;
        if (d === 'asc') {
          // Past the proofs without a robot id, a row comparison skips them (NULL compares to nothing).
          if (key !== null) return [{ orderBy: byRobot, where: (q) => robotsAfter(q, after) }];
          return [
            { orderBy: byTime, where: (q) => nullsAfter(q, after) },
            { orderBy: byRobot, where: (q) => q.whereNotNull('robot_id') },
          ];
        }
        if (key === null) return [{ orderBy: byTime, where: (q) => nullsAfter(q, after) }];
        return [
          { orderBy: byRobot, where: (q) => robotsAfter(q, after) },
          { orderBy: byTime, where: (q) => q.whereNull('robot_id') },
        ];
      }
    }
  }

  /** A text column compared by its bytes: on PostgreSQL `collate "C"`, as its indexes are (010_search). */
  textKey(column: 'task_id' | 'robot_id'): string {
    return this.postgres ? `${column} collate "C"` : column;
  }
}

export interface Segment {
  readonly orderBy: string;
  readonly where?: (query: Knex.QueryBuilder) => unknown;
}

/** The cursor after `last` in the order of `sort`. */
export function cursorAt(last: ProofSummary, sort: ProofSortField): ProofCursor {
  const base = { createdAtMs: last.createdAtMs, proofId: last.proofId };
  if (sort === 'task_id') return { ...base, key: last.taskId };
  if (sort === 'robot_id') return { ...base, key: last.robotId };
  return base;
}
