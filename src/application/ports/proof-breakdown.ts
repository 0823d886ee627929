/** What a wallet's proofs are broken down by: the robot that made each, or its task. */
export type BreakdownKey = 'robot' | 'task';

/** One robot's (or task's) proofs in a window. */
export interface ProofShare {
  readonly id: string;
  readonly proofs: number;
}

/** Proofs of a window grouped by robot or task, counted from the stored proofs. */
export interface ProofBreakdownReader {
  /**
   * The `limit` robots (or tasks) with the most proofs created in [fromMs, toMs), most first,
   * ties by id (bytewise). Proofs without a robot id belong to no robot's entry.
   */
  top(wallet: string, by: BreakdownKey, fromMs: number, toMs: number, limit: number): Promise<readonly ProofShare[]>;
}
