import type { Knex } from 'knex';
import type { ProofQuery, ProofSortField } from '../../../application/ports/proof-store.js';
import type { SummaryRow } from '../proof-rows.js';
import type { Segment } from '../proof-search-order.js';
import type { Hits } from './search-text.js';

/** How a query's proofs are read, for the filters that differ by how (filtered). */
export interface ReadHow {
  /** The proofs are read in the list's order and each is tested. */
  readonly inOrder?: boolean;
  /** SQLite: the ranges of keys whose trigram hits are a slice's matches. */
  readonly hitRanges?: ReadonlyArray<readonly [number, number]>;
  /** SQLite: with hitRanges, the list's index is walked and each entry checked against them. */
  readonly walk?: boolean;
  /** SQLite: the range of keys a slice in time order most likely holds. */
  readonly guess?: readonly [number, number];
}

/** Where a slice of the list starts and how it is read (the widening page's, for a slice). */
export interface SliceAt {
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

/** One slice of a widening page to read: the next `probe` proofs of the list past `at.end`. */
export interface SliceRead {
  readonly key: number;
  readonly q: ProofQuery;
  /** The list, with its filters other than text and topic, past `from` (the slices so far by default), in its order. */
  readonly listPast: (from?: Knex.Value[]) => Knex.QueryBuilder;
  readonly probe: number;
  /** Matches still wanted; those found are added to `found`. */
  readonly need: number;
  readonly found: SummaryRow[];
  readonly at: SliceAt;
}

/**
 * What the search does differently on SQLite and on PostgreSQL (sqlite-search.ts,
 * postgres-search.ts); the pages, the count and the filters are shared and ask this.
 */
export interface SearchDialect {
  readonly postgres: boolean;
  /** How the hits of an index are joined to their proofs, with the hits as the outer loop. */
  readonly join: 'join' | 'cross join';
  /** Whether a needle's trigram hits are its matches, with no test of the proof's text. */
  readonly hitsAreMatches: boolean;
  /** Whether a page may be read in the order of the sort's own index. */
  sortsByIndex(q: ProofQuery, sort: ProofSortField): boolean;
  /** The proofs an index names, as the outer loop of a query: each is then read by its key. */
  fromHits(key: number, by: Hits): Knex.QueryBuilder;
  /** A chunk of topic hits (`select proof_pk as pk …`) as the table `hit`. */
  hitsTable(hits: Knex.QueryBuilder): Knex.Raw | Knex.QueryBuilder;
  /** The test of a topic for proofs read in the list's order, or undefined: the EXISTS test. */
  topicInOrder(topic: string): [string, Knex.Value[]] | undefined;
  /** The test of the text rule, as the proofs are read (`how`). */
  textCondition(text: string, how: ReadHow): [string, Knex.Value[]];
  /** Reads one slice: adds its matches, up to `need`, to `found`; answers its boundary (undefined when the list ends within it). */
  slice(read: SliceRead): Promise<Record<string, unknown> | undefined>;
  /** Whether a needle is taken for common enough that counting its hits costs more than the next slice. */
  takenForCommon(text: string, probe: number): Promise<boolean>;
}
