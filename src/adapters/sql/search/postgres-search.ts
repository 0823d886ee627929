import type { Knex } from 'knex';
import { SUMMARY_COLUMNS, type SummaryRow } from '../proof-rows.js';
import type { ReadHow, SearchDialect, SliceRead } from './search-dialect.js';
import { indexable, likePattern, type Hits } from './search-text.js';
import type { SearchTuning } from './search-tuning.js';

/**
 * The search on PostgreSQL (docs/design/search.md, "PostgreSQL, and what every step costs"). A needle's proofs come from
 * the pg_trgm index on `search_text`, whose hits are every wallet's and are tested again; a
 * slice reads the next proofs of the list in one statement, each tested as it is read.
 */
export class PostgresSearch implements SearchDialect {
  readonly postgres = true;
  readonly join = 'join' as const;
  readonly hitsAreMatches = false;

  constructor(
    private readonly knex: Knex,
    private readonly tuning: SearchTuning,
  ) {}

  /** Every order may be read from its own index: the planner sorts a filter's proofs when that costs less. */
  sortsByIndex(): boolean {
    return true;
  }

  /** The hits are read once (OFFSET 0 keeps the subquery apart; Knex leaves out an OFFSET of 0, so it is written out) and joined. */
  fromHits(key: number, by: Hits): Knex.QueryBuilder {
    const hits =
      'topic' in by
        ? this.knex.raw('(select proof_pk as pk from proof_topics where wallet_id = (?) and topic = ? offset 0) as hit', [key, by.topic])
        : this.knex.raw("(select id as pk from proofs where search_text like ? escape '\\' offset 0) as hit", [likePattern(by.text)]);
    return this.knex.from(hits).joinRaw(`${this.join} proofs on proofs.id = hit.pk`);
  }

  hitsTable(hits: Knex.QueryBuilder): Knex.Raw {
    return this.knex.raw('(? offset 0) as hit', [hits]);
  }

  /**
   * A topic tested for a proof read in the list's order: OFFSET 0 keeps it a test of each
   * proof (a subplan), not a join that reads every proof of the topic when the planner
   * misjudges a slice's size.
   */
  topicInOrder(topic: string): [string, Knex.Value[]] {
    return [
      'exists (select 1 from proof_topics where proof_topics.wallet_id = proofs.wallet_id and proof_topics.topic = ? and proof_topics.created_at_ms = proofs.created_at_ms and proof_topics.proof_pk = proofs.id offset 0)',
      [topic],
    ];
  }

  /**
   * The text rule: the lower-cased needle is a substring of the lower-cased `search_text`,
   * matched literally. Proofs read in the list's order must not be answered from the trigram
   * index instead (it reads every wallet's hits; `|| ''` is the same text, not indexed); nor
   * may a needle of one or two characters, which has no trigram: the index's scan for it is a
   * scan of every entry, all wallets', and the planner's estimate of its hits moves with each
   * ANALYZE's sample.
   */
  textCondition(text: string, how: ReadHow): [string, Knex.Value[]] {
    const column = how.inOrder || !indexable(text) ? "(proofs.search_text || '')" : 'proofs.search_text';
    return [`${column} like ? escape '\\'`, [likePattern(text)]];
  }

  /**
   * A needle's hits are counted from a bitmap of every wallet's, so while the slices are short
   * a needle the planner takes for common is not counted: the next slice costs less.
   */
  async takenForCommon(text: string, probe: number): Promise<boolean> {
    return (await this.estimatedHits(text)) >= probe * this.tuning.commonPerProbe;
  }

  /**
   * One slice in one statement: the next `probe` proofs of the list in its order, each tested
   * for the text and topic of the query, answering the matches and the slice's last proof,
   * whose position is the boundary. It stops once it has the page's matches, and each proof of
   * the slice is read once (a boundary read first would read each from the table too: the
   * list's indexes hold no proof_id).
   */
  async slice({ q, listPast, probe, need, found, at }: SliceRead): Promise<Record<string, unknown> | undefined> {
    const orderBy = at.segment.orderBy;
    // The same tests as a slice's on SQLite, as a column instead of a filter.
    const tests = [
      ...(q.topic !== undefined ? [this.topicInOrder(q.topic)] : []),
      ...(q.text !== undefined ? [this.textCondition(q.text, { inOrder: true })] : []),
    ];
    const bindings = tests.flatMap(([, b]) => b);
    const slice = listPast()
      .select([
        ...SUMMARY_COLUMNS.map((c) => `proofs.${c}`),
        this.knex.raw(`(${tests.map(([sql]) => sql).join(' and ')}) as slice_hit`, bindings),
        this.knex.raw(`row_number() over (order by ${orderBy}) as slice_row`),
      ])
      .limit(probe);
    const rows = (await this.knex
      .from(slice.as('slice'))
      .select('*')
      .whereRaw('slice_hit or slice_row = ?', [probe])
      .orderByRaw(orderBy)
      .limit(need + 1)) as Array<SummaryRow & { slice_hit: boolean; slice_row: number | string }>;
    let taken = 0;
    for (const { slice_hit: hit, slice_row: _row, ...row } of rows) if (hit && taken++ < need) found.push(row as SummaryRow);
    const last = rows.find((r) => Number(r.slice_row) === probe);
    return last as Record<string, unknown> | undefined;
  }

  /** The planner's estimate of how many proofs, all wallets', hold the needle (from the trigram statistics). */
  private async estimatedHits(text: string): Promise<number> {
    const result = (await this.knex.raw("explain (format json) select 1 from proofs where search_text like ? escape '\\'", [likePattern(text)])) as {
      rows: Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>;
    };
    return result.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  }
}
