/** A sign-in challenge as issued: the exact text the wallet must sign, and for whom. */
export interface SignInChallenge {
  readonly nonce: string;
  readonly wallet: string;
  readonly message: string;
  readonly issuedAtMs: number;
  readonly expiresAtMs: number;
}

export interface StoredChallenge extends SignInChallenge {
  readonly consumedAtMs: number | null;
}

export interface NonceStore {
  /** Stores a new challenge; nonces are unique. */
  save(challenge: SignInChallenge): Promise<void>;
  find(nonce: string): Promise<StoredChallenge | null>;
  /**
   * Marks the challenge used, atomically: of any number of concurrent calls for one nonce, at
   * most one returns true, and only while it is unused and `nowMs` is before its expiry.
   */
  consume(nonce: string, nowMs: number): Promise<boolean>;
  /** Forgets challenges that expired before `beforeMs`; returns how many. */
  deleteExpired(beforeMs: number): Promise<number>;
}
