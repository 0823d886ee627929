/**
 * The numbers the search's plans are built from (docs/design/search.md explains each and how
 * it was chosen). The defaults serve production; tests pass smaller ones to reach every step
 * of a plan with few proofs.
 */
export interface SearchTuning {
  /**
   * How many proofs of the list a text or topic search tests in order before it asks an index:
   * a needle in one proof of 40 fills a page of 50 within them.
   */
  readonly textProbe: number;
  /**
   * Hits of a needle, per proof of the slice just tested, below which the rest of a page is
   * read from the trigram index (0: never).
   */
  readonly textHitsPerProbe: number;
  /**
   * Hits of a needle, all wallets', per proof of the slice just tested, from which PostgreSQL's
   * estimate marks the needle as common: counting them would cost more than the next slice.
   */
  readonly commonPerProbe: number;
  /** How many proofs of the list, at most, a SQLite slice for a needle reads as one: the second slice's length. */
  readonly sqliteChunk: number;
  /** How much longer each slice of the list a text or topic search tests is than the one before. */
  readonly widen: number;
  /** Matches in a slice from which its rate is trusted to tell that the next slice fills the page. */
  readonly rateHits: number;
  /**
   * How many keys the range of a slice's proofs may span per proof for its matches to be read
   * from the trigram index's hits in that range: a hit costs a fraction of a proof read, so a
   * range this much wider than the slice still costs less than reading the slice.
   */
  readonly keySpanPerProof: number;
  /** How many ranges of keys, at most, a slice's matches are looked up in. */
  readonly maxKeyRanges: number;
  /**
   * From how many of a needle's hits in a slice's ranges of keys the slice is walked in order
   * rather than its hits read by key: at least `manyHits`, and one for every `entriesPerHit`
   * entries of the slice (reading a hit's proof by key and sorting it costs SQLite 16 to 20
   * times a step of the walk).
   */
  readonly manyHits: number;
  readonly entriesPerHit: number;
  /** How many known counts (wallet and needle, topic or filters) a search keeps. */
  readonly reachedKept: number;
}

export const DEFAULT_SEARCH_TUNING: SearchTuning = {
  textProbe: 2_000,
  textHitsPerProbe: 0.25,
  commonPerProbe: 16,
  sqliteChunk: 8_000,
  widen: 4,
  rateHits: 8,
  keySpanPerProof: 16,
  maxKeyRanges: 8,
  manyHits: 64,
  entriesPerHit: 16,
  reachedKept: 10_000,
};

/** The tuning of `options` (any object that may name some of its fields), the defaults for the rest. */
export function searchTuning(options: Partial<SearchTuning>): SearchTuning {
  const named = Object.fromEntries(
    Object.keys(DEFAULT_SEARCH_TUNING).flatMap((k) => (options[k as keyof SearchTuning] === undefined ? [] : [[k, options[k as keyof SearchTuning]]])),
  );
  return { ...DEFAULT_SEARCH_TUNING, ...named };
}
