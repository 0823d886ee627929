/** A wallet's running figures, kept as things happen (never by reading its proofs back). */
export interface WalletTotals {
  readonly proofsSubmitted: number;
  /** Proofs with a score (every proof accepted since scores are kept; older ones once migrated). */
  readonly scoredProofs: number;
  readonly scoreSum: number;
  readonly verificationsSuccessful: number;
  readonly verificationsFailed: number;
  /** Registry time of the first and last proof accepted or verification answered. */
  readonly firstActivityMs: number | null;
  readonly lastActivityMs: number | null;
}

export interface NamedCount {
  readonly name: string;
  readonly count: number;
}

export interface DayActivity {
  /** Start of the UTC day, in ms. */
  readonly dayMs: number;
  readonly proofs: number;
  readonly verifications: number;
}

export interface WalletActivity {
  readonly totals: WalletTotals;
  /** The wallet's robots and tasks with the most proofs, most first (ties: name, byte order). */
  readonly topRobots: readonly NamedCount[];
  readonly topTasks: readonly NamedCount[];
  /** Days of the window with any activity, oldest first. */
  readonly days: readonly DayActivity[];
}

/**
 * A wallet's statistics as aggregates. Proofs move them inside the statement that stores
 * them (the proof writers; the memory store's listener), so they agree with what is stored;
 * verification calls through `recordVerifications`, as each is answered.
 */
export interface WalletStatsStore {
  recordVerifications(wallet: string, atMs: number, successful: number, failed: number): Promise<void>;
  /** Totals, the `top` robots and tasks, and the days from `fromDayMs` to `toDayMs` (both starts of UTC days, included). */
  read(wallet: string, query: { readonly top: number; readonly fromDayMs: number; readonly toDayMs: number }): Promise<WalletActivity>;
  /** How many distinct task ids the wallet's proofs hold. */
  countTasks(wallet: string): Promise<number>;
}

export const NO_TOTALS: WalletTotals = {
  proofsSubmitted: 0,
  scoredProofs: 0,
  scoreSum: 0,
  verificationsSuccessful: 0,
  verificationsFailed: 0,
  firstActivityMs: null,
  lastActivityMs: null,
};
