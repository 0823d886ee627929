import type { Knex } from 'knex';
import type { ProofQuery, ProofSortField } from '../../../application/ports/proof-store.js';
import { SUMMARY_COLUMNS, type SummaryRow } from '../proof-rows.js';
import type { ReadHow, SearchDialect, SliceAt, SliceRead } from './search-dialect.js';
import { filtered } from './search-filters.js';
import { ftsPhrase, indexable, likePattern, type Hits } from './search-text.js';
import type { SearchTuning } from './search-tuning.js';

/** The index each equality filter of a list is read through when a slice in time order is walked (walkedList). */
const FILTER_INDEXES = {
  taskId: 'proofs_wallet_task_created',
  robotId: 'proofs_wallet_robot_created',
  runId: 'proofs_wallet_run_created',
  signerPublicKeyB64: 'proofs_wallet_signer_created',
} as const;

/**
 * The search on SQLite (docs/design/search.md, "SQLite"). A needle's proofs come from the FTS5
 * trigram index `proofs_fts`, whose phrase is the substring rule itself, so its hits are the
 * matches; a slice for a needle reads the hits among the slice's keys instead of the slice's
 * rows, so that the proofs without it are never read.
 */
export class SqliteSearch implements SearchDialect {
  readonly postgres = false;
  // SQLite's planner never reorders a CROSS JOIN: the hits stay the outer loop.
  readonly join = 'cross join' as const;
  readonly hitsAreMatches = true;

  constructor(
    private readonly knex: Knex,
    private readonly tuning: SearchTuning,
  ) {}

  /**
   * Every filter's index ends in (created_at_ms, proof_id), so the time order always may be
   * read from it. Another order with a filter that is not on the sort's own column may not:
   * the planner would rather walk the sort's index over the whole wallet, testing each proof,
   * than sort the filter's proofs, and a rare value then reads the wallet. The filter's index
   * is read and its proofs sorted.
   */
  sortsByIndex(q: ProofQuery, sort: ProofSortField): boolean {
    if (sort === 'created_at') return true;
    const own = sort === 'task_id' ? 'taskId' : sort === 'robot_id' ? 'robotId' : undefined;
    const filters = (['taskId', 'robotId', 'runId', 'signerPublicKeyB64', 'createdAfterMs', 'createdBeforeMs', 'topic', 'text'] as const).filter(
      (k) => q[k] !== undefined && k !== own,
    );
    return filters.length === 0;
  }

  fromHits(key: number, by: Hits): Knex.QueryBuilder {
    const hits =
      'topic' in by
        ? this.knex.raw('(select proof_pk as pk from proof_topics where wallet_id = (?) and topic = ?) as hit', [key, by.topic])
        : this.knex.raw('(select rowid as pk from proofs_fts where proofs_fts match ?) as hit', [ftsPhrase(by.text)]);
    return this.knex.from(hits).joinRaw(`${this.join} proofs on proofs.id = hit.pk`);
  }

  hitsTable(hits: Knex.QueryBuilder): Knex.QueryBuilder {
    return hits.as('hit');
  }

  topicInOrder(): undefined {
    return undefined;
  }

  textCondition(text: string, how: ReadHow): [string, Knex.Value[]] {
    if (how.guess !== undefined && indexable(text)) {
      // A proof whose key lies in the guessed range holds the needle if the trigram index
      // names it there (its hits in the range, read once); any other is tested on its row.
      const [lo, hi] = how.guess;
      const [hits, hitBindings] = hitsInRanges(text, [how.guess]);
      return [
        `case when proofs.id between ? and ? then proofs.id in (${hits}) else proofs.search_text like ? escape '\\' end`,
        [lo, hi, ...hitBindings, likePattern(text)],
      ];
    }
    if (how.hitRanges !== undefined && indexable(text)) {
      // The hits in the ranges are the matches (hitsInRanges). `walk`: the unary + keeps
      // SQLite from reading the proofs by these keys (hits first, then a sort); the list's
      // index is walked and each entry checked against them.
      const [sql, bindings] = hitsInRanges(text, how.hitRanges);
      return [`${how.walk ? '+' : ''}proofs.id in (${sql})`, bindings];
    }
    return ["proofs.search_text like ? escape '\\'", [likePattern(text)]];
  }

  async takenForCommon(): Promise<boolean> {
    return false;
  }

  /**
   * One slice, for a needle in chunks of at most `sqliteChunk` proofs, each read as a slice of
   * its own (readChunk) from where the one before ended, stopping at the page: a chunk's
   * boundary costs a walk of the chunk, and the needle's hits are read for one chunk's range of
   * keys at a time, so a page that fills early in a long slice reads neither the rest of the
   * slice's entries nor its hits. Answers the slice's boundary (its last chunk's).
   */
  async slice(read: SliceRead): Promise<Record<string, unknown> | undefined> {
    const { at, probe, need, found } = read;
    if (!at.text) return this.readChunk(read);
    const before = found.length;
    let from = { end: at.end, endKey: at.endKey };
    let boundary: Record<string, unknown> | undefined;
    for (let done = 0; done < probe; done += this.tuning.sqliteChunk) {
      boundary = await this.readChunk({
        ...read,
        probe: Math.min(this.tuning.sqliteChunk, probe - done),
        need: need - (found.length - before),
        at: { ...at, ...from },
      });
      if (!boundary || found.length - before >= need) return boundary;
      from = { end: at.columns.map((c) => boundary![c.name] as Knex.Value), endKey: Number(boundary.slice_key) };
    }
    return boundary;
  }

  /**
   * One slice (or chunk of one): its boundary (the position of its last proof, read from the
   * list's index alone), then its matches up to `need`. A needle's matches are the trigram
   * index's hits among the slice's keys, so that the proofs without it are never read.
   *
   * In time order, a fleet's proofs are stored roughly in that order, so the keys of a slice
   * lie between those of its first and last proofs: the slice is walked in the list's order,
   * each entry whose key lies in that range (widened a little) checked against the needle's
   * hits in it, and any other entry (a proof stored far out of order) tested on its row; the
   * walk stops at the page. Otherwise (another order, keys spread too wide, the list ending
   * within the slice) the range of the slice's keys is read from its entries first (keyRanges).
   */
  private async readChunk({ key, q, listPast, probe, need, found, at }: SliceRead): Promise<Record<string, unknown> | undefined> {
    const { columns } = at;
    const list = () => listPast(at.end);
    const boundary = (
      await list()
        .select(this.knex.raw([...columns.map((c) => c.select), 'proofs.id as slice_key'].join(', ')))
        .offset(probe - 1)
        .limit(1)
    )[0] as Record<string, unknown> | undefined;
    // The slice ends at its boundary, or with the list.
    const toBoundary = (query: Knex.QueryBuilder) =>
      boundary
        ? query.whereRaw(
            `${at.position} ${at.through} ${at.marks}`,
            columns.map((c) => boundary[c.name] as Knex.Value),
          )
        : query;
    const inSlice = (query: Knex.QueryBuilder): Knex.QueryBuilder => {
      at.segment.where?.(query);
      if (at.end) query.whereRaw(`${at.position} ${at.past} ${at.marks}`, at.end);
      return toBoundary(query);
    };
    const matches = (from: Knex.QueryBuilder | undefined, how: ReadHow) =>
      inSlice(filtered(this.knex, this, key, q, from, { inOrder: true, ...how }).select([...SUMMARY_COLUMNS]));
    const guess = at.text && at.byTime && boundary ? await this.guessedKeys(list, at.endKey, Number(boundary.slice_key), probe) : undefined;
    if (guess) {
      found.push(...((await matches(this.walkedList(q, at), { guess }).orderByRaw(at.segment.orderBy).limit(need)) as SummaryRow[]));
      return boundary;
    }
    // The keys of the slice's proofs: its first `probe` entries of the list's index, read in
    // order (a range bounded by the two positions instead compares each entry with both,
    // which was slower). A list not read in its index's order (`+`, sortsByIndex) is sorted for
    // its boundary already; its range is not sorted again.
    const inOrder = !at.segment.orderBy.startsWith('+');
    const keys = () =>
      this.knex.from((inOrder ? list().limit(probe) : toBoundary(list().clearOrder())).select(this.knex.raw('proofs.id as id')).as('slice_keys'));
    // The first slice looks for clusters of keys only if they are one range: its proofs are
    // few, and reading them costs less than grouping their keys.
    const hitRanges = at.text ? await this.keyRanges(keys, probe > this.tuning.textProbe) : undefined;
    // Few hits in the ranges: each is looked up and they are sorted. Many: the slice is walked
    // in the list's order, each entry checked against the hits, and the walk stops at the
    // page, instead of every hit's proof being read.
    const many = Math.max(this.tuning.manyHits, Math.ceil(probe / this.tuning.entriesPerHit));
    const walk = hitRanges !== undefined && (await this.hitsIn(q.text!, hitRanges, many)) >= many;
    const slice = matches(hitRanges === undefined || walk ? this.walkedList(q, at) : undefined, { hitRanges, walk });
    found.push(...((await slice.orderByRaw(at.segment.orderBy).limit(need)) as SummaryRow[]));
    return boundary;
  }

  /**
   * The table a slice in time order is walked from when the list has an equality filter:
   * `proofs` read through that filter's own index. A slice is bounded by positions on both
   * sides, and without statistics SQLite takes a range bounded on both sides of the wallet's
   * time index for more selective than the filter's equality: it would then walk every proof
   * of the wallet in the slice's span of time and read each row for the filter. Undefined
   * otherwise (SQLite chooses).
   */
  private walkedList(q: ProofQuery, at: SliceAt): Knex.QueryBuilder | undefined {
    if (!at.byTime) return undefined;
    const filter = (['taskId', 'robotId', 'runId', 'signerPublicKeyB64'] as const).find((k) => q[k] !== undefined);
    if (filter === undefined) return undefined;
    return this.knex.from(this.knex.raw('?? indexed by ??', ['proofs', FILTER_INDEXES[filter]]));
  }

  /**
   * The range of keys a slice in time order most likely holds: from its first proof's key
   * (the last slice's boundary's, or read for the first slice) to its last one's, widened on
   * each side for proofs stored a little out of order. Undefined when that range is wider than
   * `keySpanPerProof` keys a proof of the slice.
   */
  private async guessedKeys(
    listPast: () => Knex.QueryBuilder,
    startKey: number | undefined,
    lastKey: number,
    probe: number,
  ): Promise<readonly [number, number] | undefined> {
    const first = startKey ?? ((await listPast().select(this.knex.raw('proofs.id as id')).limit(1))[0] as { id: number } | undefined)?.id;
    if (first === undefined || !Number.isFinite(lastKey)) return undefined;
    const slack = Math.ceil(probe / this.tuning.entriesPerHit);
    const lo = Math.max(0, Math.min(first, lastKey) - slack);
    const hi = Math.max(first, lastKey) + slack;
    return hi - lo + 1 <= probe * this.tuning.keySpanPerProof ? [lo, hi] : undefined;
  }

  /**
   * The ranges of keys (`proofs.id`, the trigram index's rowid) that hold the proofs of a
   * slice. Writers store a fleet's proofs roughly in time order, so the slice's keys mostly lie
   * close together: one range. Proofs stored far out of the list's order put them in a few
   * clusters far apart: one range a cluster, found by grouping the keys in runs as long as the
   * slice. Undefined when the ranges are so much wider than the slice that the index could
   * name more hits in them than reading the slice's proofs would cost, or when they are too many.
   */
  private async keyRanges(slice: () => Knex.QueryBuilder, clusters: boolean): Promise<ReadonlyArray<readonly [number, number]> | undefined> {
    const [row] = (await slice().select(this.knex.raw('min(id) as lo, max(id) as hi, count(*) as n'))) as Array<{
      lo: number | null;
      hi: number | null;
      n: number;
    }>;
    if (row?.lo == null || row.hi == null) return undefined;
    const wide = Math.max(row.n, 1) * this.tuning.keySpanPerProof;
    if (row.hi - row.lo + 1 <= wide) return [[row.lo, row.hi]];
    if (!clusters) return undefined;
    // An integer in the statement itself: integer division (a bound number may be a real).
    const run = Math.max(Math.trunc(Number(row.n)), 1);
    const most = this.tuning.maxKeyRanges;
    const groups = (await slice()
      .select(this.knex.raw('min(id) as lo, max(id) as hi'))
      .groupByRaw(`id / ${run}`)
      .orderBy('lo')
      .limit(most * 2 + 1)) as Array<{ lo: number; hi: number }>;
    // Neighbouring runs of one cluster are one range.
    const ranges: Array<[number, number]> = [];
    for (const g of groups) {
      const last = ranges[ranges.length - 1];
      if (last && g.lo - last[1] <= run) last[1] = g.hi;
      else ranges.push([g.lo, g.hi]);
    }
    const span = ranges.reduce((sum, [lo, hi]) => sum + hi - lo + 1, 0);
    return groups.length <= most * 2 && ranges.length <= most && span <= wide ? ranges : undefined;
  }

  /** How many keys in `ranges` the trigram index names for the needle, counted no further than `upTo`. */
  private async hitsIn(text: string, ranges: ReadonlyArray<readonly [number, number]>, upTo: number): Promise<number> {
    const [sql, bindings] = hitsInRanges(text, ranges);
    const [row] = (await this.knex.raw(`select count(*) as n from (select 1 from (${sql}) limit ?)`, [...bindings, upTo])) as Array<{ n: number }>;
    return Number(row?.n ?? 0);
  }
}

/**
 * The keys the trigram index names for a needle in each of `ranges`, one look-up a range. The
 * phrase is the substring rule itself, so the hits are the matches; each look-up reads only
 * its range of each trigram's hits.
 */
function hitsInRanges(text: string, ranges: ReadonlyArray<readonly [number, number]>): [string, Knex.Value[]] {
  const inRange = 'select rowid from proofs_fts where proofs_fts match ? and rowid between ? and ?';
  const phrase = ftsPhrase(text);
  return [ranges.map(() => inRange).join(' union all '), ranges.flatMap(([lo, hi]) => [phrase, lo, hi])];
}
