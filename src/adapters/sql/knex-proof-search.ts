import type { Knex } from 'knex';
import type { ProofCursor, ProofPage, ProofQuery, ProofSortField } from '../../application/ports/proof-store.js';
import { SUMMARY_COLUMNS, toSummary, type SummaryRow } from './proof-rows.js';
import { cursorAt, ProofSearchOrder, type Segment } from './proof-search-order.js';

/**
 * The read queries of a search and of its count (docs/storage.md, "Search plans"). Both
 * dialects must return the same items in the same order with the same cursors (the contract
 * suite runs against each), and no statement may read a wallet's proofs one by one beyond a
 * bound (test/adapters/sql/search-plans.test.ts checks each plan).
 */
export class KnexProofSearch {
  private readonly order: ProofSearchOrder;
  /**
   * How many hits counts found a wallet's needle or topic to have at least ("wallet key, kind,
   * needle"). Proofs are only ever added, so such a fact stays true: a search that repeats a
   * count already known to reach its bound (the next page, the same search again) skips it.
   */
  private readonly reached = new Map<string, number>();

  /**
   * `textProbe`: how many proofs of the list a text or topic search tests in order first.
   * `textHitsPerProbe`: how many hits of a needle, per proof of the slice just tested, the
   * trigram index may name for the rest of the page to be read from it (probedPage).
   * `commonPerProbe`: PostgreSQL's estimate of a needle's hits, per proof of the slice just
   * tested, from which the needle is not counted while the slices are short.
   * `sqliteChunk`: how many proofs, at most, a SQLite slice for a needle reads as one.
   */
  constructor(
    private readonly knex: Knex,
    private readonly postgres: boolean,
    private readonly textProbe = TEXT_PROBE,
    private readonly textHitsPerProbe = TEXT_HITS_PER_PROBE,
    private readonly commonPerProbe = COMMON_PER_PROBE,
    private readonly sqliteChunk = SQLITE_CHUNK,
  ) {
    this.order = new ProofSearchOrder(postgres);
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
      ? await this.topicPage(key, q, direction, q.offset ?? 0, want)
      : sparse
        ? await this.probedPage(key, q, sort, direction, want)
        : await this.page(key, q, sort, direction, want);
    const page = rows.slice(0, q.limit).map(toSummary);
    const last = page[page.length - 1];
    return { items: page, next: rows.length > q.limit && last ? cursorAt(last, sort) : null };
  }

  private async page(key: number, q: ProofQuery, sort: ProofSortField, direction: 'asc' | 'desc', want: number): Promise<SummaryRow[]> {
    const rows: SummaryRow[] = [];
    // Ordered by robot, a topic or text search reads the proofs its index names and sorts them.
    const hits = q.topic !== undefined ? { topic: q.topic } : q.text !== undefined && indexable(q.text) ? { text: q.text } : undefined;
    for (const segment of this.order.segments(sort, direction, q.after, this.sortsByIndex(q, sort))) {
      const query = this.filtered(key, q, hits ? this.fromHits(key, hits) : undefined).select([...SUMMARY_COLUMNS]);
      segment.where?.(query);
      query.orderByRaw(segment.orderBy).limit(want - rows.length);
      if (q.offset) query.offset(q.offset);
      rows.push(...(await query));
      if (rows.length >= want) break;
    }
    return rows;
  }

  /**
   * Whether a page may be read in the order of the sort's own index. Every filter's index ends
   * in (created_at_ms, proof_id), so the time order always may. Another order with a filter
   * that is not on the sort's own column may not on SQLite: its planner would rather walk the
   * sort's index over the whole wallet, testing each proof, than sort the filter's proofs, and
   * a rare value then reads the wallet. The filter's index is read and its proofs sorted.
   */
  private sortsByIndex(q: ProofQuery, sort: ProofSortField): boolean {
    if (this.postgres || sort === 'created_at') return true;
    const own = sort === 'task_id' ? 'taskId' : sort === 'robot_id' ? 'robotId' : undefined;
    const filters = (['taskId', 'robotId', 'runId', 'signerPublicKeyB64', 'createdAfterMs', 'createdBeforeMs', 'topic', 'text'] as const).filter((k) => q[k] !== undefined && k !== own);
    return filters.length === 0;
  }

  /**
   * A page of a search by text or topic, so that neither a common needle or topic nor a rare
   * one, nor one common only in older proofs, reads the wallet's proofs:
   * - first the next `textProbe` proofs of the list (with its other filters), in its order,
   *   each tested (a needle in one proof of 40 fills a page there);
   * - then, while the page is not full: if the index names few of the wallet's proofs
   *   (counted up to a bound, by the index), the proofs it names past the slices, sorted;
   *   otherwise the next slice of the list, WIDEN times longer. The bound is what costs
   *   about as much as the next slice: for a topic, as many hits as that slice has proofs
   *   (its count reads the topic index alone, and each proof of a slice is tested with a
   *   lookup of that index); for a needle, a quarter of the slice just tested (each hit, and
   *   each hit counted, is a lookup of its proof, four or so times a proof read in order).
   *   A count already seen to reach its bound is not sent again, and on PostgreSQL a needle
   *   the planner takes for common is not counted while the slices are short.
   * The work is bounded by a few times the smaller of the distance to the page's matches and
   * the number of hits. The boundaries between steps are positions in the order, so the
   * steps together are the list's order exactly.
   */
  private async probedPage(key: number, q: ProofQuery, sort: Exclude<ProofSortField, 'robot_id'>, direction: 'asc' | 'desc', want: number): Promise<SummaryRow[]> {
    const { text, topic, ...others } = q;
    const [segment] = this.order.segments(sort, direction, q.after, this.sortsByIndex(others, sort));
    const columns = this.order.positionColumns(sort);
    const position = `(${columns.map((c) => c.expression).join(', ')})`;
    const marks = `(${columns.map(() => '?').join(', ')})`;
    const [through, past] = direction === 'asc' ? ['<=', '>'] : ['>=', '<'];
    const hits: { readonly text: string } | { readonly topic: string } = text !== undefined && indexable(text) ? { text } : { topic: topic! };
    const skip = q.offset ?? 0;
    const found: SummaryRow[] = [];
    // The position the slices so far end at (inclusive), and that proof's key; undefined before the first.
    let end: Knex.Value[] | undefined;
    let endKey: number | undefined;
    // The list, with its other filters, past the slices so far (or past `from`), in its order.
    const listPast = (from: Knex.Value[] | undefined = end): Knex.QueryBuilder => {
      const list = this.filtered(key, others);
      segment!.where?.(list);
      if (from) list.whereRaw(`${position} ${past} ${marks}`, from);
      return list.orderByRaw(segment!.orderBy);
    };
    for (let probe = this.textProbe; ; probe *= WIDEN) {
      const before = found.length;
      // Each slice adds its matches, up to the page, to `found`, and answers its boundary.
      const need = skip + want - found.length;
      const boundary = this.postgres
        ? await this.testedSlice(listPast(), q, segment!.orderBy, probe, need, found)
        : await this.sqliteSlice(key, q, listPast, probe, need, found, { segment: segment!, columns, position, marks, through, past, end, endKey, text: 'text' in hits, byTime: sort === 'created_at' });
      if (!boundary || found.length >= skip + want) return found.slice(skip);
      end = columns.map((c) => boundary[c.name] as Knex.Value);
      endKey = boundary.slice_key === undefined ? undefined : Number(boundary.slice_key);
      // Enough matches in this slice, at a rate that fills the page within half the next one:
      // the next slice, without asking the index (whose count reads every hit of a common
      // needle on PostgreSQL, all wallets' alike).
      const inSlice = found.length - before;
      if (inSlice >= RATE_HITS && inSlice * WIDEN >= 2 * (skip + want - found.length)) continue;
      const bound = 'topic' in hits ? probe * WIDEN : Math.floor(probe * this.textHitsPerProbe);
      if (bound > 0) {
        // A count this store already saw reach the bound still does: proofs are only added.
        if ((this.reached.get(reachedKey(key, hits)) ?? 0) >= bound) continue;
        // PostgreSQL counts a needle's hits from a bitmap of every wallet's (about 65 ms for a
        // word in 2.5% of ten million proofs), so while the slices are short, a needle the
        // planner takes for common is not counted: the next slice costs less. Past two it is.
        const short = probe < this.textProbe * WIDEN * WIDEN;
        if ('text' in hits && this.postgres && short && (await this.estimatedHits(hits.text)) >= probe * this.commonPerProbe) continue;
        const n = await this.countHits(key, hits, bound);
        if (n < bound) break;
        this.remember(reachedKey(key, hits), n);
      }
    }
    if ('topic' in hits && sort === 'created_at') {
      const kept = found.slice(skip);
      const from = { createdAtMs: Number(end![0]), proofId: String(end![1]) };
      return [...kept, ...(await this.topicPage(key, q, direction, Math.max(0, skip - found.length), want - kept.length, from))];
    }
    const rest = this.filtered(key, q, this.fromHits(key, hits)).select([...SUMMARY_COLUMNS]);
    rest.whereRaw(`${position} ${past} ${marks}`, end).orderByRaw(segment!.orderBy);
    // What the offset still skips is skipped in the last step's own order.
    const kept = found.slice(skip);
    rest.limit(want - kept.length);
    if (skip > found.length) rest.offset(skip - found.length);
    return [...kept, ...((await rest) as SummaryRow[])];
  }

  /**
   * One slice on SQLite, for a needle in chunks of at most SQLITE_CHUNK proofs, each read as
   * a slice of its own (readChunk) from where the one before ended, stopping at the page:
   * a chunk's boundary costs a walk of the chunk, and the needle's hits are read for one
   * chunk's range of keys at a time, so a page that fills early in a long slice reads neither
   * the rest of the slice's entries nor its hits (a word in every other proof, past 22,000
   * newest proofs without it: 25,000 hits read for the page's 51 in one range of 32,000
   * proofs). Answers the slice's boundary (its last chunk's), undefined when the list ends
   * within it.
   */
  private async sqliteSlice(
    key: number,
    q: ProofQuery,
    listPast: (from?: Knex.Value[]) => Knex.QueryBuilder,
    probe: number,
    need: number,
    found: SummaryRow[],
    at: SliceAt,
  ): Promise<Record<string, unknown> | undefined> {
    if (!at.text) return this.readChunk(key, q, listPast, probe, need, found, at);
    const before = found.length;
    let from = { end: at.end, endKey: at.endKey };
    let boundary: Record<string, unknown> | undefined;
    for (let done = 0; done < probe; done += this.sqliteChunk) {
      boundary = await this.readChunk(key, q, listPast, Math.min(this.sqliteChunk, probe - done), need - (found.length - before), found, { ...at, ...from });
      if (!boundary || found.length - before >= need) return boundary;
      from = { end: at.columns.map((c) => boundary![c.name] as Knex.Value), endKey: Number(boundary.slice_key) };
    }
    return boundary;
  }

  /**
   * One slice (or chunk of one) on SQLite: its boundary (the position of its last proof, read
   * from the list's index alone), then its matches up to `need`, added to `found`. A needle's matches are
   * the trigram index's hits among the slice's keys, so that the proofs without it are never
   * read: a slice of 2,000 proofs of which few or none hold the needle costs a walk of the
   * list's index instead of 2,000 rows read (about 1.3 ms against 5–9 ms, one million proofs).
   *
   * In time order, a fleet's proofs are stored roughly in that order, so the keys of a slice
   * lie between those of its first and last proofs: the slice is walked in the list's order,
   * each entry whose key lies in that range (widened a little) checked against the needle's
   * hits in it, and any other entry (a proof stored far out of order) tested on its row; the
   * walk stops at the page. Otherwise (another order, keys spread too wide, the list ending
   * within the slice) the range of the slice's keys is read from its entries first
   * (keyRanges). Answers the boundary, undefined when the list ends within the slice.
   */
  private async readChunk(
    key: number,
    q: ProofQuery,
    listPast: (from?: Knex.Value[]) => Knex.QueryBuilder,
    probe: number,
    need: number,
    found: SummaryRow[],
    at: SliceAt,
  ): Promise<Record<string, unknown> | undefined> {
    const { columns } = at;
    const list = () => listPast(at.end);
    const boundary = (await list().select(this.knex.raw([...columns.map((c) => c.select), 'proofs.id as slice_key'].join(', '))).offset(probe - 1).limit(1))[0] as
      | Record<string, unknown>
      | undefined;
    // The slice ends at its boundary, or with the list.
    const toBoundary = (query: Knex.QueryBuilder) => (boundary ? query.whereRaw(`${at.position} ${at.through} ${at.marks}`, columns.map((c) => boundary[c.name] as Knex.Value)) : query);
    const inSlice = (query: Knex.QueryBuilder): Knex.QueryBuilder => {
      at.segment.where?.(query);
      if (at.end) query.whereRaw(`${at.position} ${at.past} ${at.marks}`, at.end);
      return toBoundary(query);
    };
    const guess = at.text && at.byTime && boundary ? await this.guessedKeys(list, at.endKey, Number(boundary.slice_key), probe) : undefined;
    if (guess) {
      const slice = inSlice(this.filtered(key, q, this.walkedList(q, at), { inOrder: true, guess }).select([...SUMMARY_COLUMNS]));
      found.push(...((await slice.orderByRaw(at.segment.orderBy).limit(need)) as SummaryRow[]));
      return boundary;
    }
    // The keys of the slice's proofs: its first `probe` entries of the list's index, read in
    // order (a range bounded by the two positions instead compares each entry with both,
    // which was slower). A list not read in its index's order (`+`, sortsByIndex) is sorted for
    // its boundary already; its range is not sorted again.
    const inOrder = !at.segment.orderBy.startsWith('+');
    const keys = () => this.knex.from((inOrder ? list().limit(probe) : toBoundary(list().clearOrder())).select(this.knex.raw('proofs.id as id')).as('slice_keys'));
    // The first slice looks for clusters of keys only if they are one range: its proofs are
    // few, and reading them costs less than grouping their keys.
    const hitRanges = at.text ? await this.keyRanges(keys, probe > this.textProbe) : undefined;
    // Few hits in the ranges: each is looked up and they are sorted. Many: the slice is walked
    // in the list's order, each entry checked against the hits, and the walk stops at the
    // page, instead of every hit's proof being read (12,000 of them, 150 ms, for a word in
    // every proof past 20,000 without it).
    const many = Math.max(MANY_HITS, Math.ceil(probe / ENTRIES_PER_HIT));
    const walk = hitRanges !== undefined && (await this.hitsIn(q.text!, hitRanges, many)) >= many;
    const slice = inSlice(this.filtered(key, q, hitRanges === undefined || walk ? this.walkedList(q, at) : undefined, { inOrder: true, hitRanges, walk }).select([...SUMMARY_COLUMNS]));
    found.push(...((await slice.orderByRaw(at.segment.orderBy).limit(need)) as SummaryRow[]));
    return boundary;
  }

  /**
   * The table a slice in time order is walked from, on SQLite, when the list has an equality
   * filter: `proofs` read through that filter's own index. A slice is bounded by positions on
   * both sides, and without statistics SQLite takes a range bounded on both sides of the
   * wallet's time index for more selective than the filter's equality: it then walks every
   * proof of the wallet in the slice's span of time and reads each row for the filter (at ten
   * million proofs, a task's slice of 8,000 spanned weeks of the wallet's proofs: 40–48 ms
   * for the page's last two matches). Undefined otherwise (SQLite chooses).
   */
  private walkedList(q: ProofQuery, at: SliceAt): Knex.QueryBuilder | undefined {
    if (!at.byTime) return undefined;
    const filter = (['taskId', 'robotId', 'runId', 'signerPublicKeyB64'] as const).find((k) => q[k] !== undefined);
    if (filter === undefined) return undefined;
    const index = { taskId: 'proofs_wallet_task_created', robotId: 'proofs_wallet_robot_created', runId: 'proofs_wallet_run_created', signerPublicKeyB64: 'proofs_wallet_signer_created' }[filter];
    return this.knex.from(this.knex.raw('?? indexed by ??', ['proofs', index]));
  }

  /**
   * One slice on PostgreSQL, in one statement: the next `probe` proofs of `list` in its order,
   * each tested for the text and topic of `q`, answering the matches (up to `need`, added to
   * `found`) and the slice's last proof, whose position is the boundary answered. It stops
   * once it has the page's matches, and each proof of the slice is read once (a boundary
   * read first would read each from the table too: the list's indexes hold no proof_id).
   * Undefined when the list ends within the slice.
   */
  private async testedSlice(list: Knex.QueryBuilder, q: ProofQuery, orderBy: string, probe: number, need: number, found: SummaryRow[]): Promise<Record<string, unknown> | undefined> {
    // The same tests as a slice's on SQLite, as a column instead of a filter.
    const tests = [...(q.topic !== undefined ? [topicTestInOrder(q.topic)] : []), ...(q.text !== undefined ? [this.textTest(q.text, true)] : [])];
    const bindings = tests.flatMap(([, b]) => b);
    const slice = list
      .select([...SUMMARY_COLUMNS.map((c) => `proofs.${c}`), this.knex.raw(`(${tests.map(([sql]) => sql).join(' and ')}) as slice_hit`, bindings), this.knex.raw(`row_number() over (order by ${orderBy}) as slice_row`)])
      .limit(probe);
    const rows = (await this.knex.from(slice.as('slice')).select('*').whereRaw('slice_hit or slice_row = ?', [probe]).orderByRaw(orderBy).limit(need + 1)) as Array<SummaryRow & { slice_hit: boolean; slice_row: number | string }>;
    let taken = 0;
    for (const { slice_hit: hit, slice_row: _row, ...row } of rows) if (hit && taken++ < need) found.push(row as SummaryRow);
    const last = rows.find((r) => Number(r.slice_row) === probe);
    return last as Record<string, unknown> | undefined;
  }

  /**
   * The range of keys a slice in time order most likely holds: from its first proof's key
   * (the last slice's boundary's, or read for the first slice) to its last one's, widened by
   * a sixteenth of the slice on each side for proofs stored a little out of order. Undefined
   * when that range is wider than KEY_SPAN_PER_PROOF keys a proof of the slice (a wallet whose
   * proofs are a small share of everyone's, or a slice whose two ends were stored far apart).
   */
  private async guessedKeys(listPast: () => Knex.QueryBuilder, startKey: number | undefined, lastKey: number, probe: number): Promise<readonly [number, number] | undefined> {
    const first = startKey ?? ((await listPast().select(this.knex.raw('proofs.id as id')).limit(1))[0] as { id: number } | undefined)?.id;
    if (first === undefined || !Number.isFinite(lastKey)) return undefined;
    const slack = Math.ceil(probe / ENTRIES_PER_HIT);
    const lo = Math.max(0, Math.min(first, lastKey) - slack);
    const hi = Math.max(first, lastKey) + slack;
    return hi - lo + 1 <= probe * KEY_SPAN_PER_PROOF ? [lo, hi] : undefined;
  }

  /**
   * The ranges of keys (`proofs.id`, the trigram index's rowid) that hold the proofs of a
   * slice (a range of the list's index). Writers store a fleet's proofs roughly in time order, so the
   * slice's keys mostly lie close together: one range. Proofs stored far out of the list's
   * order (a robot sending a week's proofs once it is back online) put them in a few clusters
   * far apart: one range a cluster, the clusters found by grouping the keys in runs as long
   * as the slice. Undefined when the ranges are so much wider than the slice (a wallet whose
   * proofs are a small share of everyone's) that the index could name more hits in them than
   * reading the slice's proofs would cost, or when they are too many.
   */
  private async keyRanges(slice: () => Knex.QueryBuilder, clusters: boolean): Promise<ReadonlyArray<readonly [number, number]> | undefined> {
    const [row] = (await slice().select(this.knex.raw('min(id) as lo, max(id) as hi, count(*) as n'))) as Array<{ lo: number | null; hi: number | null; n: number }>;
    if (row?.lo == null || row.hi == null) return undefined;
    const wide = Math.max(row.n, 1) * KEY_SPAN_PER_PROOF;
    if (row.hi - row.lo + 1 <= wide) return [[row.lo, row.hi]];
    if (!clusters) return undefined;
    // An integer in the statement itself: integer division (a bound number may be a real).
    const run = Math.max(Math.trunc(Number(row.n)), 1);
    const groups = (await slice()
      .select(this.knex.raw('min(id) as lo, max(id) as hi'))
      .groupByRaw(`id / ${run}`)
      .orderBy('lo')
      .limit(MAX_KEY_RANGES * 2 + 1)) as Array<{ lo: number; hi: number }>;
    // Neighbouring runs of one cluster are one range.
    const ranges: Array<[number, number]> = [];
    for (const g of groups) {
      const last = ranges[ranges.length - 1];
      if (last && g.lo - last[1] <= run) last[1] = g.hi;
      else ranges.push([g.lo, g.hi]);
    }
    const span = ranges.reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
    return groups.length <= MAX_KEY_RANGES * 2 && ranges.length <= MAX_KEY_RANGES && span <= wide ? ranges : undefined;
  }

  /** How many keys in `ranges` the trigram index names for the needle, counted no further than `upTo`. */
  private async hitsIn(text: string, ranges: ReadonlyArray<readonly [number, number]>, upTo: number): Promise<number> {
    const [sql, bindings] = hitsInRanges(text, ranges);
    const [row] = (await this.knex.raw(`select count(*) as n from (select 1 from (${sql}) limit ?)`, [...bindings, upTo])) as Array<{ n: number }>;
    return Number(row?.n ?? 0);
  }

  /**
   * A page of proofs with a topic in time order, read from the topic index in that order
   * (wallet_id, topic, created_at_ms, proof_pk; 015_topic_times), a chunk at a time: the time
   * of the chunk's last entry is read from the index alone, then the proofs of the chunk's
   * range of times, ties at its edge included, are looked up, filtered and sorted by
   * (created_at_ms, proof_id). Each chunk is WIDEN times the one before, from the page's size,
   * so a topic whose proofs all pass the other filters costs a page's lookups, and one whose
   * proofs rarely do costs at most a few times the topic's proofs. `from`: the position the
   * page starts past, when it is beyond the query's cursor (the slices probedPage tested).
   */
  private async topicPage(key: number, q: ProofQuery, direction: 'asc' | 'desc', skip: number, want: number, from: ProofCursor | undefined = q.after): Promise<SummaryRow[]> {
    const { topic, ...others } = q;
    const [segment] = this.order.segments('created_at', direction, from);
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
    for (let chunk = skip + want; ; chunk *= WIDEN) {
      const edge = (await range(this.knex('proof_topics').select('created_at_ms'))
        .orderBy([
          { column: 'created_at_ms', order: direction },
          { column: 'proof_pk', order: direction },
        ])
        .offset(chunk - 1)
        .limit(1)) as Array<{ created_at_ms: number | string }>;
      const far = edge[0] === undefined ? undefined : Number(edge[0].created_at_ms);
      const hits = range(this.knex('proof_topics').select('proof_pk as pk'));
      if (far !== undefined) hits.where('proof_topics.created_at_ms', desc ? '>=' : '<=', far);
      // PostgreSQL reads the chunk's hits once (OFFSET 0 keeps the subquery apart); SQLite's CROSS JOIN keeps them outer.
      const chunkHits = this.postgres ? this.knex.raw('(? offset 0) as hit', [hits]) : hits.as('hit');
      const rows = this.filtered(key, others, this.knex.from(chunkHits).joinRaw(`${this.postgres ? 'join' : 'cross join'} proofs on proofs.id = hit.pk`)).select([...SUMMARY_COLUMNS]);
      segment!.where?.(rows);
      found.push(...((await rows.orderByRaw(segment!.orderBy).limit(skip + want - found.length)) as SummaryRow[]));
      if (far === undefined || found.length >= skip + want) return found.slice(skip);
      near = { ms: far, inclusive: false };
    }
  }

  /** How many of the wallet's proofs the topic or trigram index names, counted no further than `upTo`, by the index. */
  private async countHits(key: number, by: { readonly text: string } | { readonly topic: string }, upTo: number): Promise<number> {
    // A topic's rows carry the wallet: its index alone answers. A needle's hits are all wallets'.
    const named =
      'topic' in by
        ? this.knex('proof_topics').where('wallet_id', key).where('topic', by.topic)
        : this.fromHits(key, by).where('proofs.wallet_id', key);
    const [row] = await this.knex.count<Array<{ n: number | string }>>({ n: '*' }).from(named.select(this.knex.raw('1')).limit(upTo).as('named'));
    return Number(row?.n ?? 0);
  }

  private remember(key: string, n: number): void {
    this.reached.delete(key);
    this.reached.set(key, Math.max(n, this.reached.get(key) ?? 0));
    // The oldest fact first (a Map iterates in insertion order).
    if (this.reached.size > REACHED_KEPT) this.reached.delete(this.reached.keys().next().value!);
  }

  /** PostgreSQL's estimate of how many proofs, all wallets', hold the needle (its planner's, from the trigram statistics). */
  private async estimatedHits(text: string): Promise<number> {
    const result = (await this.knex.raw("explain (format json) select 1 from proofs where search_text like ? escape '\\'", [`%${escapeLike(text.toLowerCase())}%`])) as {
      rows: Array<{ 'QUERY PLAN': Array<{ Plan: { 'Plan Rows': number } }> }>;
    };
    return result.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  }

  /**
   * The proofs the trigram index (a needle) or the topic index names, as the outer loop of a
   * query: each is then read by its key. SQLite is held to that order by CROSS JOIN, which its
   * planner never reorders (it would rather walk the wallet's index and test each proof);
   * PostgreSQL reads the hits once (OFFSET 0 keeps the subquery apart) and joins them. A page
   * comes here only when the index names few of the wallet's proofs (probedPage), so hits
   * first is always the cheaper order there.
   */
  private fromHits(key: number, by: { readonly text: string } | { readonly topic: string }): Knex.QueryBuilder {
    const join = this.postgres ? 'join' : 'cross join';
    if ('topic' in by) {
      // Knex leaves out an OFFSET of 0, so PostgreSQL's is written out.
      const hits = this.knex.raw(`(select proof_pk as pk from proof_topics where wallet_id = (?) and topic = ?${this.postgres ? ' offset 0' : ''}) as hit`, [
        key,
        by.topic,
      ]);
      return this.knex.from(hits).joinRaw(`${join} proofs on proofs.id = hit.pk`);
    }
    const hits = this.postgres
      ? this.knex.raw("(select id as pk from proofs where search_text like ? escape '\\' offset 0) as hit", [`%${escapeLike(by.text.toLowerCase())}%`])
      : this.knex.raw('(select rowid as pk from proofs_fts where proofs_fts match ?) as hit', [ftsPhrase(by.text)]);
    return this.knex.from(hits).joinRaw(`${join} proofs on proofs.id = hit.pk`);
  }

  async count(wallet: string, q: ProofQuery, upTo: number): Promise<number> {
    const key = await this.keyOf(wallet);
    if (key === undefined) return 0;
    // A count that reached its bound still does (proofs are only added, and no filter of a
    // proof's changes): the offset pages of one search, each asking for its total, count once.
    const known = countedKey(key, q);
    if ((this.reached.get(known) ?? 0) >= upTo) return upTo;
    const n = await this.countMatching(key, q, upTo);
    if (n >= upTo) this.remember(known, n);
    return n;
  }

  private async countMatching(key: number, q: ProofQuery, upTo: number): Promise<number> {
    const { text, topic } = q;
    let matching: Knex.QueryBuilder;
    if (topic === undefined && text !== undefined && indexable(text) && !this.postgres) {
      // On SQLite the trigram index's phrase is the substring rule itself (the text is
      // lower-cased, case_sensitive 1), so a hit is not tested again: with no other filter on
      // the proof's row, each hit is one lookup of (wallet_id) in proofs_wallet_key (013).
      const { text: _needle, ...others } = q;
      matching = this.filtered(key, others, this.fromHits(key, { text }));
    } else if (topic !== undefined || (text !== undefined && indexable(text) && !this.postgres)) {
      // The topic or trigram index leads and each proof it names is looked up by its key: the
      // count stops at upTo however many proofs the wallet has.
      matching = this.filtered(key, q, this.fromHits(key, topic !== undefined ? { topic } : { text: text! }));
    } else {
      matching = this.filtered(key, q);
    }
    const [row] = await this.knex.count<Array<{ n: number | string }>>({ n: '*' }).from(matching.select(this.knex.raw('1')).limit(upTo).as('matching'));
    return Number(row?.n ?? 0);
  }

  /**
   * The wallet's key (every index of `proofs` leads with it), looked up before the statements
   * that use it: PostgreSQL plans for the value it is given, and the big wallet's proofs are
   * not an average wallet's. A wallet with no key has stored nothing.
   */
  private async keyOf(wallet: string): Promise<number | undefined> {
    const row = (await this.knex('wallets').select('id').where('address', wallet).first()) as { id: number | string } | undefined;
    return row === undefined ? undefined : Number(row.id);
  }

  /** The wallet's proofs that pass the query's filters, as a query to add columns, order and limits to. */
  private filtered(
    key: number,
    q: Omit<ProofQuery, 'text'> & { readonly text?: string },
    from: Knex.QueryBuilder = this.knex('proofs'),
    how: { readonly inOrder?: boolean; readonly hitRanges?: ReadonlyArray<readonly [number, number]>; readonly walk?: boolean; readonly guess?: readonly [number, number] } = {},
  ): Knex.QueryBuilder {
    const query = from.where('proofs.wallet_id', key);
    if (q.taskId !== undefined) query.where('task_id', q.taskId);
    if (q.robotId !== undefined) query.where('robot_id', q.robotId);
    if (q.runId !== undefined) query.where('run_id', q.runId);
    if (q.signerPublicKeyB64 !== undefined) query.where('signer_public_key_b64', q.signerPublicKeyB64);
    if (q.createdAfterMs !== undefined) query.where('created_at_ms', '>=', q.createdAfterMs);
    if (q.createdBeforeMs !== undefined) query.where('created_at_ms', '<', q.createdBeforeMs);
    if (q.topic !== undefined && how.inOrder && this.postgres) {
      // Tested proof by proof in the list's order.
      query.whereRaw(...topicTestInOrder(q.topic));
    } else if (q.topic !== undefined) {
      query.whereExists(
        this.knex('proof_topics')
          .select(this.knex.raw('1'))
          .whereRaw('proof_topics.proof_pk = proofs.id and proof_topics.wallet_id = proofs.wallet_id and proof_topics.created_at_ms = proofs.created_at_ms')
          .where('proof_topics.topic', q.topic),
      );
    }
    if (q.text !== undefined && how.guess !== undefined && indexable(q.text)) {
      // A proof whose key lies in the guessed range holds the needle if the trigram index
      // names it there (its hits in the range, read once); any other is tested on its row.
      const [lo, hi] = how.guess;
      const [hits, hitBindings] = hitsInRanges(q.text, [how.guess]);
      const [test, testBindings] = this.textTest(q.text, true);
      query.whereRaw(`case when proofs.id between ? and ? then proofs.id in (${hits}) else ${test} end`, [lo, hi, ...hitBindings, ...testBindings]);
    } else if (q.text !== undefined && how.hitRanges !== undefined && indexable(q.text)) {
      // The hits in the ranges are the matches (hitsInRanges). `walk`: the unary + keeps
      // SQLite from reading the proofs by these keys (hits first, then a sort); the list's
      // index is walked and each entry checked against them.
      const [sql, bindings] = hitsInRanges(q.text, how.hitRanges);
      query.whereRaw(`${how.walk ? '+' : ''}proofs.id in (${sql})`, bindings);
    } else if (q.text !== undefined) query.whereRaw(...this.textTest(q.text, how.inOrder));
    return query;
  }

  /**
   * The text rule (docs/storage.md, "Text search"): the lower-cased needle is a substring of
   * the lower-cased `search_text`, matched literally, wildcards included. `inOrder`: the test
   * of proofs read in the list's order, which PostgreSQL must not answer from the trigram
   * index instead (it reads every wallet's hits; `|| ''` is the same text, not indexed).
   * Nor may it for a needle of one or two characters, which has no trigram: the index's scan
   * for it is a scan of every entry, all wallets', and the planner's estimate of such a
   * needle's hits moves with each ANALYZE's sample (at ten million proofs, 1,001 estimated
   * for 1.7 million: that scan, 13.3 s a page).
   */
  private textTest(text: string, inOrder = false): [string, Knex.Value[]] {
    const column = (inOrder || !indexable(text)) && this.postgres ? "(proofs.search_text || '')" : 'proofs.search_text';
    return [`${column} like ? escape '\\'`, [`%${escapeLike(text.toLowerCase())}%`]];
  }
}

/** Where a slice of the list starts and how it is read (probedPage's, for sqliteSlice). */
interface SliceAt {
  readonly segment: Segment;
  readonly columns: ReadonlyArray<{ name: string; select: string }>;
  readonly position: string;
  readonly marks: string;
  readonly through: string;
  readonly past: string;
  /** The position the slices so far end at (inclusive), and that proof's key; undefined before the first. */
  readonly end: Knex.Value[] | undefined;
  readonly endKey: number | undefined;
  readonly text: boolean;
  readonly byTime: boolean;
}

/**
 * How many proofs of the list, at most, a SQLite slice for a needle reads as one (sqliteSlice):
 * the second slice's length.
 */
const SQLITE_CHUNK = 8_000;

/**
 * How many proofs of the list a text search tests in order before it asks the trigram index:
 * a needle in one proof of 40 fills a page of 50 within them.
 */
const TEXT_PROBE = 2_000;

/** How much longer each slice of the list a text or topic search tests is than the one before. */
const WIDEN = 4;

/**
 * How many keys the range of a slice's proofs may span per proof for its matches to be read
 * from the trigram index's hits in that range (keyRanges): a hit costs a fraction of a proof
 * read, so a range this much wider than the slice still costs less than reading the slice.
 */
const KEY_SPAN_PER_PROOF = 16;

/** How many ranges of keys, at most, a slice's matches are looked up in (keyRanges). */
const MAX_KEY_RANGES = 8;

/**
 * Hits of a needle, all wallets', per proof of the slice just tested, from which PostgreSQL's
 * estimate marks the needle as common: counting them would cost more than the next slice.
 */
const COMMON_PER_PROBE = 16;

/** How many known counts (wallet and needle or topic) a search keeps. */
const REACHED_KEPT = 10_000;

function reachedKey(key: number, by: { readonly text: string } | { readonly topic: string }): string {
  return 'text' in by ? `${key}\u0000text\u0000${by.text.toLowerCase()}` : `${key}\u0000topic\u0000${by.topic}`;
}

/**
 * The key of a count's fact: the wallet's and the filters' (not the order, page or position).
 * A needle or a topic alone is the count of its hits in the wallet, the fact a page's slices
 * count too (reachedKey), so each can use what the other found.
 */
function countedKey(key: number, q: ProofQuery): string {
  // Every member but the order and the page's is a filter, so a filter added later is part of the key.
  const { order: _order, sort: _sort, limit: _limit, after: _after, offset: _offset, ...filters } = q;
  const given = Object.entries({ ...filters, text: q.text?.toLowerCase() })
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : 1));
  const [only] = given;
  if (given.length === 1 && only![0] === 'topic') return reachedKey(key, { topic: q.topic! });
  if (given.length === 1 && only![0] === 'text' && indexable(q.text!)) return reachedKey(key, { text: q.text! });
  return `${key}\u0000count\u0000${JSON.stringify(given)}`;
}

/** Matches in a slice from which its rate is trusted to tell that the next slice fills the page. */
const RATE_HITS = 8;

/** Hits of a needle per proof of the slice just tested below which the rest of a page is read from the trigram index. */
const TEXT_HITS_PER_PROBE = 0.25;

/**
 * From how many of a needle's hits in a slice's ranges of keys the slice is walked in order
 * rather than its hits read by key: at least MANY_HITS, and one for every ENTRIES_PER_HIT
 * entries of the slice. Reading a hit's proof by key and sorting it cost SQLite 16 to 20
 * times a step of the walk (one million proofs: about 6 µs against 0.2–0.4), so from one hit
 * in 16 the walk costs less even when it must go to the slice's end.
 */
const MANY_HITS = 64;
const ENTRIES_PER_HIT = 16;

/**
 * A search by topic in time order with no filter but times: the topic index, read in that
 * order (topicPage), is the page itself, however common or rare the topic.
 */
/**
 * The keys the trigram index names for a needle in each of `ranges`, one look-up a range
 * (SQLite). The phrase is the substring rule itself there (see count), so the hits are the
 * matches; each look-up reads only its range of each trigram's hits.
 */
function hitsInRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): [string, Knex.Value[]] {
  const inRange = 'select rowid from proofs_fts where proofs_fts match ? and rowid between ? and ?';
  const phrase = ftsPhrase(text);
  return [ranges.map(() => inRange).join(' union all '), ranges.flatMap(([lo, hi]) => [phrase, lo, hi])];
}

function byTopicAlone(q: ProofQuery, sort: ProofSortField): boolean {
  return sort === 'created_at' && q.topic !== undefined && [q.taskId, q.robotId, q.runId, q.signerPublicKeyB64, q.text].every((v) => v === undefined);
}

/**
 * PostgreSQL's test of a proof read in the list's order for a topic: OFFSET 0 keeps it a test
 * of each proof (a subplan), not a join that reads every proof of the topic when the planner
 * misjudges a slice's size.
 */
function topicTestInOrder(topic: string): [string, Knex.Value[]] {
  return [
    'exists (select 1 from proof_topics where proof_topics.wallet_id = proofs.wallet_id and proof_topics.topic = ? and proof_topics.created_at_ms = proofs.created_at_ms and proof_topics.proof_pk = proofs.id offset 0)',
    [topic],
  ];
}

/** A trigram index can serve a needle of three characters or more. */
function indexable(text: string): boolean {
  let n = 0;
  for (const _ of text) if (++n >= 3) return true;
  return false;
}

/** The needle as one FTS5 phrase: with the trigram tokenizer, the proofs whose text holds it. */
function ftsPhrase(text: string): string {
  return `"${text.toLowerCase().replaceAll('"', '""')}"`;
}

/** Makes `%`, `_` and the escape character itself match literally in LIKE … ESCAPE '\'. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
