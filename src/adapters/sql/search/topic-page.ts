import type { Knex } from 'knex';
import type { ProofCursor, ProofQuery } from '../../../application/ports/proof-store.js';
import { SUMMARY_COLUMNS, type SummaryRow } from '../proof-rows.js';
import type { SearchContext } from './search-context.js';
import { filtered } from './search-filters.js';

/**
 * A page of proofs with a topic in time order, read from the topic index in that order
 * (wallet_id, topic, created_at_ms, proof_pk; 015_topic_times), a chunk at a time: the time of
 * the chunk's last entry is read from the index alone, then the proofs of the chunk's range of
 * times, ties at its edge included, are looked up, filtered and sorted by (created_at_ms,
 * proof_id). Each chunk is `widen` times the one before, from the page's size, so a topic whose
 * proofs all pass the other filters costs a page's lookups, and one whose proofs rarely do
 * costs at most a few times the topic's proofs. `from`: the position the page starts past,
 * when it is beyond the query's cursor (the slices a widening page tested).
 */
export async function topicPage(
  ctx: SearchContext,
  key: number,
  q: ProofQuery,
  direction: 'asc' | 'desc',
  skip: number,
  want: number,
  from: ProofCursor | undefined = q.after,
): Promise<SummaryRow[]> {
  const { knex, dialect } = ctx;
  const { topic, ...others } = q;
  const [segment] = ctx.order.segments('created_at', direction, from);
  const desc = direction === 'desc';
  // The nearest time still to read in the page's order, and whether it is itself still to read.
  let near = from === undefined ? undefined : { ms: from.createdAtMs, inclusive: true };
  const range = (query: Knex.QueryBuilder): Knex.QueryBuilder => {
    query.where('proof_topics.wallet_id', key).where('proof_topics.topic', topic!);
    if (q.createdAfterMs !== undefined) query.where('proof_topics.created_at_ms', '>=', q.createdAfterMs);
    if (q.createdBeforeMs !== undefined) query.where('proof_topics.created_at_ms', '<', q.createdBeforeMs);
    if (near) query.where('proof_topics.created_at_ms', `${desc ? '<' : '>'}${near.inclusive ? '=' : ''}`, near.ms);
    return query;
  };
  const found: SummaryRow[] = [];
  for (let chunk = skip + want; ; chunk *= ctx.tuning.widen) {
    const edge = (await range(knex('proof_topics').select('created_at_ms'))
      .orderBy([
        { column: 'created_at_ms', order: direction },
        { column: 'proof_pk', order: direction },
      ])
      .offset(chunk - 1)
      .limit(1)) as Array<{ created_at_ms: number | string }>;
    const far = edge[0] === undefined ? undefined : Number(edge[0].created_at_ms);
    const hits = range(knex('proof_topics').select('proof_pk as pk'));
    if (far !== undefined) hits.where('proof_topics.created_at_ms', desc ? '>=' : '<=', far);
    const rows = filtered(knex, dialect, key, others, knex.from(dialect.hitsTable(hits)).joinRaw(`${dialect.join} proofs on proofs.id = hit.pk`)).select([
      ...SUMMARY_COLUMNS,
    ]);
    segment!.where?.(rows);
    found.push(...((await rows.orderByRaw(segment!.orderBy).limit(skip + want - found.length)) as SummaryRow[]));
    if (far === undefined || found.length >= skip + want) return found.slice(skip);
    near = { ms: far, inclusive: false };
  }
}
