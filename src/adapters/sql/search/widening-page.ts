import type { Knex } from 'knex';
import type { ProofQuery, ProofSortField } from '../../../application/ports/proof-store.js';
import { SUMMARY_COLUMNS, type SummaryRow } from '../proof-rows.js';
import { reachedKey } from './count-memo.js';
import type { SearchContext } from './search-context.js';
import { filtered } from './search-filters.js';
import { indexable, type Hits } from './search-text.js';
import { topicPage } from './topic-page.js';

/**
 * A page of a search by text or topic, so that neither a common needle or topic nor a rare
 * one, nor one common only in older proofs, reads the wallet's proofs
 * (docs/design/search.md, "The widening page"):
 * - first the next `textProbe` proofs of the list (with its other filters), in its order,
 *   each tested;
 * - then, while the page is not full: if the index names few of the wallet's proofs
 *   (counted up to a bound, by the index), the proofs it names past the slices, sorted;
 *   otherwise the next slice of the list, `widen` times longer. The bound is what costs about
 *   as much as the next slice: for a topic, as many hits as that slice has proofs; for a
 *   needle, `textHitsPerProbe` of the slice just tested. A count already seen to reach its
 *   bound is not sent again, and a needle the dialect takes for common is not counted while
 *   the slices are short.
 * The work is bounded by a few times the smaller of the distance to the page's matches and
 * the number of hits. The boundaries between steps are positions in the order, so the steps
 * together are the list's order exactly.
 */
export async function wideningPage(
  ctx: SearchContext,
  key: number,
  q: ProofQuery,
  sort: Exclude<ProofSortField, 'robot_id'>,
  direction: 'asc' | 'desc',
  want: number,
): Promise<SummaryRow[]> {
  const { knex, dialect, tuning } = ctx;
  const { text, topic, ...others } = q;
  const [segment] = ctx.order.segments(sort, direction, q.after, dialect.sortsByIndex(others, sort));
  const columns = ctx.order.positionColumns(sort);
  const position = `(${columns.map((c) => c.expression).join(', ')})`;
  const marks = `(${columns.map(() => '?').join(', ')})`;
  const [through, past] = direction === 'asc' ? ['<=', '>'] : ['>=', '<'];
  const hits: Hits = text !== undefined && indexable(text) ? { text } : { topic: topic! };
  const skip = q.offset ?? 0;
  const found: SummaryRow[] = [];
  // The position the slices so far end at (inclusive), and that proof's key; undefined before the first.
  let end: Knex.Value[] | undefined;
  let endKey: number | undefined;
  // The list, with its other filters, past the slices so far (or past `from`), in its order.
  const listPast = (from: Knex.Value[] | undefined = end): Knex.QueryBuilder => {
    const list = filtered(knex, dialect, key, others);
    segment!.where?.(list);
    if (from) list.whereRaw(`${position} ${past} ${marks}`, from);
    return list.orderByRaw(segment!.orderBy);
  };
  for (let probe = tuning.textProbe; ; probe *= tuning.widen) {
    const before = found.length;
    // Each slice adds its matches, up to the page, to `found`, and answers its boundary.
    const need = skip + want - found.length;
    const at = { segment: segment!, columns, position, marks, through, past, end, endKey, text: 'text' in hits, byTime: sort === 'created_at' };
    const boundary = await dialect.slice({ key, q, listPast, probe, need, found, at });
    if (!boundary || found.length >= skip + want) return found.slice(skip);
    end = columns.map((c) => boundary[c.name] as Knex.Value);
    endKey = boundary.slice_key === undefined ? undefined : Number(boundary.slice_key);
    // Enough matches in this slice, at a rate that fills the page within half the next one:
    // the next slice, without asking the index (whose count reads every hit of a common
    // needle on PostgreSQL, all wallets' alike).
    const inSlice = found.length - before;
    if (inSlice >= tuning.rateHits && inSlice * tuning.widen >= 2 * (skip + want - found.length)) continue;
    const bound = 'topic' in hits ? probe * tuning.widen : Math.floor(probe * tuning.textHitsPerProbe);
    if (bound > 0) {
      // A count this store already saw reach the bound still does: proofs are only added.
      if (ctx.memo.known(reachedKey(key, hits)) >= bound) continue;
      // While the slices are short (not yet past two), a needle taken for common is not counted.
      const short = probe < tuning.textProbe * tuning.widen * tuning.widen;
      if ('text' in hits && short && (await dialect.takenForCommon(hits.text, probe))) continue;
      const n = await countHits(ctx, key, hits, bound);
      if (n < bound) break;
      ctx.memo.remember(reachedKey(key, hits), n);
    }
  }
  if ('topic' in hits && sort === 'created_at') {
    const kept = found.slice(skip);
    const from = { createdAtMs: Number(end![0]), proofId: String(end![1]) };
    return [...kept, ...(await topicPage(ctx, key, q, direction, Math.max(0, skip - found.length), want - kept.length, from))];
  }
  const rest = filtered(knex, dialect, key, q, dialect.fromHits(key, hits)).select([...SUMMARY_COLUMNS]);
  rest.whereRaw(`${position} ${past} ${marks}`, end).orderByRaw(segment!.orderBy);
  // What the offset still skips is skipped in the last step's own order.
  const kept = found.slice(skip);
  rest.limit(want - kept.length);
  if (skip > found.length) rest.offset(skip - found.length);
  return [...kept, ...((await rest) as SummaryRow[])];
}

/** How many of the wallet's proofs the topic or trigram index names, counted no further than `upTo`, by the index. */
export async function countHits({ knex, dialect }: SearchContext, key: number, by: Hits, upTo: number): Promise<number> {
  // A topic's rows carry the wallet: its index alone answers. A needle's hits are all wallets'.
  const named =
    'topic' in by ? knex('proof_topics').where('wallet_id', key).where('topic', by.topic) : dialect.fromHits(key, by).where('proofs.wallet_id', key);
  const [row] = await knex.count<Array<{ n: number | string }>>({ n: '*' }).from(named.select(knex.raw('1')).limit(upTo).as('named'));
  return Number(row?.n ?? 0);
}
