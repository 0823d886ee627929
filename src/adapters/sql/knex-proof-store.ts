import type { Knex } from 'knex';
import type { AddResult, ProofCursor, ProofPage, ProofQuery, ProofSortField, ProofStore } from '../../application/ports/proof-store.js';
import type { ProofSummary } from '../../domain/proof/proof-record.js';
import type { ProofRecord } from '../../domain/proof/proof-record.js';
import type { Database } from './database.js';
import { GroupCommit, type GroupCommitOptions } from './group-commit.js';
import { PostgresProofWriter } from './postgres-proof-writer.js';
import type { ProofWriter } from './proof-writer.js';
import { SqliteProofWriter } from './sqlite-proof-writer.js';
import { SUMMARY_COLUMNS, toRecord, toSummary, type ProofRow, type SummaryRow } from './proof-rows.js';
import { walletKeyOf } from './wallet-keys.js';

/**
 * ProofStore on SQLite or PostgreSQL through Knex. Both dialects must return the same items
 * in the same order with the same cursors (the contract suite runs against each).
 */
export class KnexProofStore implements ProofStore {
  private readonly knex: Knex;
  /**
   * How `proof_id` is compared and ordered. Ids are lower-case hex, so byte order is the
   * intended order; PostgreSQL is told so explicitly (the column is also declared `C`, which
   * keeps the indexes usable), SQLite compares bytes by default.
   */
  private readonly proofIdKey: string;
  private readonly postgres: boolean;

  private readonly commits: GroupCommit;

  /**
   * `options.writer` writes the proofs elsewhere (the writer thread, see
   * threaded-proof-writer.ts); by default on `db.knex`'s connection, with the SQL of its
   * database (sqlite-proof-writer.ts, postgres-proof-writer.ts).
   */
  constructor(
    db: Pick<Database, 'knex' | 'dialect'> & Partial<Pick<Database, 'reader'>>,
    options: Partial<GroupCommitOptions> & { readonly writer?: ProofWriter } = {},
  ) {
    // Reads use the read connections so they never queue behind a batch of writes.
    this.knex = db.reader ?? db.knex;
    this.postgres = db.dialect === 'postgres';
    this.proofIdKey = this.postgres ? 'proof_id collate "C"' : 'proof_id';
    // One batch in flight at a time on both databases. SQLite has one writer anyway. On
    // PostgreSQL, concurrent batches upsert the same device rows (a fleet's devices appear in
    // every batch), so they queue on those row locks: measured with 64 robots, 4 writers
    // managed 282 submissions/s and 1 writer 624/s, its larger batches sharing one commit.
    const writer = options.writer ?? (db.dialect === 'postgres' ? new PostgresProofWriter(db.knex) : SqliteProofWriter.onKnex(db.knex));
    this.commits = new GroupCommit(writer, {
      maxBatch: options.maxBatch ?? 200,
      writers: options.writers ?? 1,
      ...(options.onBatch ? { onBatch: options.onBatch } : {}),
    });
  }

  /** Atomic insert-or-ignore; concurrent adds are grouped into shared transactions. */
  add(record: ProofRecord): Promise<AddResult> {
    return this.commits.add(record);
  }

  async get(wallet: string, proofId: string): Promise<ProofRecord | null> {
    const row = await this.knex<ProofRow>('proofs').where('wallet_id', walletKeyOf(this.knex, wallet)).where('proof_id', proofId).first();
    return row ? toRecord(row) : null;
  }

  async search(wallet: string, q: ProofQuery): Promise<ProofPage> {
    if (q.after !== undefined && q.offset !== undefined) throw new Error('a search takes a position or an offset, not both');
    const sort = q.sort ?? 'created_at';
    const direction = q.order === 'asc' ? 'asc' : 'desc';
    // One row beyond the page tells whether another page exists, without a COUNT.
    const want = q.limit + 1;
    const rows: SummaryRow[] = [];
    for (const segment of this.segments(sort, direction, q.after)) {
      const query = this.filtered(wallet, q).select([...SUMMARY_COLUMNS]);
      segment.where?.(query);
      query.orderByRaw(segment.orderBy).limit(want - rows.length);
      if (q.offset) query.offset(q.offset);
      rows.push(...(await query));
      if (rows.length >= want) break;
    }
    const page = rows.slice(0, q.limit).map(toSummary);
    const last = page[page.length - 1];
    return { items: page, next: rows.length > q.limit && last ? cursorAt(last, sort) : null };
  }

  async count(wallet: string, q: ProofQuery, upTo: number): Promise<number> {
    const matching = this.filtered(wallet, q).select(this.knex.raw('1')).limit(upTo);
    const [row] = await this.knex.count<Array<{ n: number | string }>>({ n: '*' }).from(matching.as('matching'));
    return Number(row?.n ?? 0);
  }

  /** The wallet's proofs that pass the query's filters, as a query to add columns, order and limits to. */
  private filtered(wallet: string, q: ProofQuery): Knex.QueryBuilder {
    // The wallet's key, looked up once: every index of `proofs` leads with it.
    const query = this.knex('proofs').where('wallet_id', walletKeyOf(this.knex, wallet));
    if (q.taskId !== undefined) query.where('task_id', q.taskId);
    if (q.robotId !== undefined) query.where('robot_id', q.robotId);
    if (q.runId !== undefined) query.where('run_id', q.runId);
    if (q.signerPublicKeyB64 !== undefined) query.where('signer_public_key_b64', q.signerPublicKeyB64);
    if (q.createdAfterMs !== undefined) query.where('created_at_ms', '>=', q.createdAfterMs);
    if (q.createdBeforeMs !== undefined) query.where('created_at_ms', '<', q.createdBeforeMs);
    if (q.topic !== undefined) {
      query.whereExists(
        this.knex('proof_topics')
          .select(this.knex.raw('1'))
          .whereRaw('proof_topics.proof_pk = proofs.id and proof_topics.wallet_id = proofs.wallet_id')
          .where('proof_topics.topic', q.topic),
      );
    }
    if (q.text !== undefined) {
      // search_text is stored lower-cased; the needle is matched literally, wildcards included.
      query.whereRaw("search_text like ? escape '\\'", [`%${escapeLike(q.text.toLowerCase())}%`]);
    }
    return query;
  }

  /**
   * The queries that read a page, in turn, each continuing where the one before ran out: one,
   * except for the robot order from a cursor, where the proofs without a robot id (first in
   * ascending order, last in descending) are a range of their own. Each orders by the columns
   * of one index, so each is one range of it, read in either direction, with no sort.
   */
  private segments(sort: ProofSortField, direction: 'asc' | 'desc', after: ProofCursor | undefined): Segment[] {
    const d = direction;
    const op = d === 'asc' ? '>' : '<';
    const pid = this.proofIdKey;
    const byTime = `created_at_ms ${d}, ${pid} ${d}`;
    switch (sort) {
      case 'created_at':
        return [{ orderBy: byTime, ...(after && { where: (q) => q.whereRaw(`(created_at_ms, ${pid}) ${op} (?, ?)`, [after.createdAtMs, after.proofId]) }) }];
      case 'payload_hash':
        return [{ orderBy: `${pid} ${d}`, ...(after && { where: (q) => q.whereRaw(`${pid} ${op} ?`, [after.proofId]) }) }];
      case 'task_id': {
        const task = this.textKey('task_id');
        return [
          {
            orderBy: `${task} ${d}, ${byTime}`,
            ...(after && { where: (q) => q.whereRaw(`(${task}, created_at_ms, ${pid}) ${op} (?, ?, ?)`, [after.key ?? '', after.createdAtMs, after.proofId]) }),
          },
        ];
      }
      case 'robot_id': {
        const robot = this.textKey('robot_id');
        // SQLite orders NULL first; PostgreSQL is told to (its index is declared so, 010_search).
        const nulls = this.postgres ? (d === 'asc' ? ' nulls first' : ' nulls last') : '';
        const byRobot = `${robot} ${d}${nulls}, ${byTime}`;
        const nullsAfter = (q: Knex.QueryBuilder, a: ProofCursor) => q.whereNull('robot_id').whereRaw(`(created_at_ms, ${pid}) ${op} (?, ?)`, [a.createdAtMs, a.proofId]);
        const robotsAfter = (q: Knex.QueryBuilder, a: ProofCursor) => q.whereRaw(`(${robot}, created_at_ms, ${pid}) ${op} (?, ?, ?)`, [a.key ?? null, a.createdAtMs, a.proofId]);
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
  private textKey(column: 'task_id' | 'robot_id'): string {
    return this.postgres ? `${column} collate "C"` : column;
  }
}

interface Segment {
  readonly orderBy: string;
  readonly where?: (query: Knex.QueryBuilder) => unknown;
}

function cursorAt(last: ProofSummary, sort: ProofSortField): ProofCursor {
  const base = { createdAtMs: last.createdAtMs, proofId: last.proofId };
  if (sort === 'task_id') return { ...base, key: last.taskId };
  if (sort === 'robot_id') return { ...base, key: last.robotId };
  return base;
}

/** Makes `%`, `_` and the escape character itself match literally in LIKE … ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
