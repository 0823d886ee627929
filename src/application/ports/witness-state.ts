/** The latest checkpoint a witness cosigned for one log: the size and root it vouches for. */
export interface WitnessedCheckpoint {
  readonly size: number;
  readonly rootHash: Uint8Array;
}

/**
 * What a witness remembers, per log origin (c2sp.org/tlog-witness): the latest checkpoint it
 * cosigned. `advance` is a compare-and-set, so checking the old size and recording the new
 * one are one atomic step: of two requests from the same old checkpoint, only one moves it.
 */
export interface WitnessState {
  /** The latest cosigned checkpoint of this origin; null if the witness never cosigned one. */
  latest(origin: string): Promise<WitnessedCheckpoint | null>;
  /** The latest cosigned checkpoint of this origin as a note: the log's signatures and the witness's cosignature. */
  latestNote(origin: string): Promise<string | null>;
  /**
   * Records `to` as the latest of `origin` if the latest is still `from` (null: none yet), and
   * says whether it did. False means another request changed it meanwhile: nothing was written.
   */
  advance(origin: string, from: WitnessedCheckpoint | null, to: WitnessedCheckpoint & { readonly note: string }, atMs: number): Promise<boolean>;
}
