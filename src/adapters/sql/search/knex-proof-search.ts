import type { Knex } from 'knex';
import type { ProofPage, ProofQuery, ProofSortField } from '../../../application/ports/proof-store.js';
import { toSummary, SUMMARY_COLUMNS, type SummaryRow } from '../proof-rows.js';
import { cursorAt, ProofSearchOrder } from '../proof-search-order.js';
import { CountMemo, countedKey } from './count-memo.js';
import { PostgresSearch } from './postgres-search.js';
import type { SearchContext } from './search-context.js';
import { filtered } from './search-filters.js';
import { indexable } from './search-text.js';
import { DEFAULT_SEARCH_TUNING, type SearchTuning } from './search-tuning.js';
import { SqliteSearch } from './sqlite-search.js';
import { topicPage } from './topic-page.js';
import { wideningPage } from './widening-page.js';

/**
 * The read queries of a search and of its count (docs/design/search.md). Both databases must
 * return the same items in the same order with the same cursors (the contract suite runs
 * against each), and no statement may read a wallet's proofs one by one beyond a bound
 * (test/adapters/sql/search-plans*.test.ts check each plan). What differs by database is in
 * its dialect (sqlite-search.ts, postgres-search.ts); the pages are shared.
 */
export class KnexProofSearch {
  private readonly ctx: SearchContext;

  constructor(knex: Knex, database: 'sqlite' | 'postgres', tuning: SearchTuning = DEFAULT_SEARCH_TUNING) {
    const dialect = database === 'postgres' ? new PostgresSearch(knex, tuning) : new SqliteSearch(knex, tuning);
    this.ctx = { knex, dialect, order: new ProofSearchOrder(dialect.postgres), tuning, memo: new CountMemo(tuning.reachedKept) };
  }

  async search(wallet: string, q: ProofQuery): Promise<ProofPage> {
    const key = await this.keyOf(wallet);
    if (key === undefined) return { items: [], next: null };
    if (q.after !== undefined && q.offset !== undefined) throw new Error('a search takes a position or an offset, not both');
    const sort = q.sort ?? 'created_at';
    const direction = q.order === 'asc' ? 'asc' : 'desc';
    // One row beyond the page tells whether another page exists, without a COUNT.
    const want = q.limit + 1;
    const sparse = (q.topic !== undefined || (q.text !== undefined && indexable(q.text))) && sort !== 'robot_id';
    const rows = byTopicAlone(q, sort)
      ? await topicPage(this.ctx, key, q, direction, q.offset ?? 0, want)
      : sparse
        ? await wideningPage(this.ctx, key, q, sort, direction, want)
        : await this.page(key, q, sort, direction, want);
    const page = rows.slice(0, q.limit).map(toSummary);
    const last = page[page.length - 1];
    return { items: page, next: rows.length > q.limit && last ? cursorAt(last, sort) : null };
  }

  async count(wallet: string, q: ProofQuery, upTo: number): Promise<number> {
    const key = await this.keyOf(wallet);
    if (key === undefined) return 0;
    // A count that reached its bound still does: the offset pages of one search, each asking for its total, count once.
    const known = countedKey(key, q);
    if (this.ctx.memo.known(known) >= upTo) return upTo;
    const n = await this.countMatching(key, q, upTo);
    if (n >= upTo) this.ctx.memo.remember(known, n);
    return n;
  }

  /** A page read in the list's order, segment by segment (a list ordered by robot puts the proofs with none last). */
  private async page(key: number, q: ProofQuery, sort: ProofSortField, direction: 'asc' | 'desc', want: number): Promise<SummaryRow[]> {
    const { knex, dialect } = this.ctx;
    const rows: SummaryRow[] = [];
    // Ordered by robot, a topic or text search reads the proofs its index names and sorts them.
    const hits = q.topic !== undefined ? { topic: q.topic } : q.text !== undefined && indexable(q.text) ? { text: q.text } : undefined;
    for (const segment of this.ctx.order.segments(sort, direction, q.after, dialect.sortsByIndex(q, sort))) {
      const query = filtered(knex, dialect, key, q, hits ? dialect.fromHits(key, hits) : undefined).select([...SUMMARY_COLUMNS]);
      segment.where?.(query);
      query.orderByRaw(segment.orderBy).limit(want - rows.length);
      if (q.offset) query.offset(q.offset);
      rows.push(...(await query));
      if (rows.length >= want) break;
    }
    return rows;
  }

  private async countMatching(key: number, q: ProofQuery, upTo: number): Promise<number> {
    const { knex, dialect } = this.ctx;
    const { text, topic } = q;
    // Where a needle's hits are its matches (SQLite), each is counted without testing its text.
    const needleHits = text !== undefined && indexable(text) && dialect.hitsAreMatches;
    let matching: Knex.QueryBuilder;
    if (topic === undefined && needleHits) {
      // With no other filter on the proof's row, each hit is one lookup of (wallet_id) in proofs_wallet_key (013).
      const { text: _needle, ...others } = q;
      matching = filtered(knex, dialect, key, others, dialect.fromHits(key, { text: text! }));
    } else if (topic !== undefined || needleHits) {
      // The topic or trigram index leads and each proof it names is looked up by its key: the
      // count stops at upTo however many proofs the wallet has.
      matching = filtered(knex, dialect, key, q, dialect.fromHits(key, topic !== undefined ? { topic } : { text: text! }));
    } else {
      matching = filtered(knex, dialect, key, q);
    }
    const [row] = await knex.count<Array<{ n: number | string }>>({ n: '*' }).from(matching.select(knex.raw('1')).limit(upTo).as('matching'));
    return Number(row?.n ?? 0);
  }

  /**
   * The wallet's key (every index of `proofs` leads with it), looked up before the statements
   * that use it: PostgreSQL plans for the value it is given, and the big wallet's proofs are
   * not an average wallet's. A wallet with no key has stored nothing.
   */
  private async keyOf(wallet: string): Promise<number | undefined> {
    const row = (await this.ctx.knex('wallets').select('id').where('address', wallet).first()) as { id: number | string } | undefined;
    return row === undefined ? undefined : Number(row.id);
  }
}

/** A search by topic in time order with no filter but times: the topic index, read in that order, is the page itself, however common or rare the topic. */
function byTopicAlone(q: ProofQuery, sort: ProofSortField): boolean {
  return sort === 'created_at' && q.topic !== undefined && [q.taskId, q.robotId, q.runId, q.signerPublicKeyB64, q.text].every((v) => v === undefined);
}
