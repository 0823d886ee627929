/** Requests and errors of one API key in one UTC day. */
export interface KeyDayUsage {
  readonly keyId: string;
  /** Start of the UTC day, in ms. */
  readonly dayMs: number;
  readonly requests: number;
  readonly errors: number;
}

/** Requests and errors of one API key at one endpoint in one UTC day. */
export interface KeyEndpointDayUsage extends KeyDayUsage {
  /** The method and route template, e.g. `POST /v1/proofs`. */
  readonly endpoint: string;
}

/** Per-day request and error counts of API keys, in total and per endpoint, added to in batches. */
export interface KeyUsageHistory {
  /** Adds to the day counters (creating them); concurrent adds from several instances sum. */
  add(rows: readonly KeyDayUsage[]): Promise<void>;
  /** The key's days in [fromDayMs, toDayMs) that have counts, oldest first. */
  days(keyId: string, fromDayMs: number, toDayMs: number): Promise<readonly KeyDayUsage[]>;
  /** Adds to the per-endpoint day counters, as `add` does to the totals. */
  addByEndpoint(rows: readonly KeyEndpointDayUsage[]): Promise<void>;
  /** The key's endpoint days in [fromDayMs, toDayMs) that have counts, oldest first, then by endpoint. */
  endpointDays(keyId: string, fromDayMs: number, toDayMs: number): Promise<readonly KeyEndpointDayUsage[]>;
}

/** Proof submissions of one wallet refused in one UTC hour (the envelope did not verify, or could not be stored). */
export interface HourRejections {
  readonly wallet: string;
  /** Start of the UTC hour, in ms. */
  readonly hourMs: number;
  readonly count: number;
}

/** Where refused submissions are counted, off the request's path (SubmitProof tells it of each). */
export interface SubmissionRefusals {
  record(wallet: string, atMs: number): void;
}

/** Refused submissions per wallet and UTC hour, added to in batches. */
export interface ProofRejectionLog {
  add(rows: readonly HourRejections[]): Promise<void>;
  /** The wallet's hours in [fromMs, toMs) that have refusals, oldest first. */
  hours(wallet: string, fromMs: number, toMs: number): Promise<readonly HourRejections[]>;
}

/** Proofs and distinct devices of one bucket of a wallet's proofs, by created_at. */
export interface ProofBucket {
  readonly startMs: number;
  readonly proofs: number;
  /** Distinct robot ids among the bucket's proofs. */
  readonly devices: number;
}

export interface ProofSeriesReader {
  /** Buckets of `bucketMs` (aligned on multiples of it) in [fromMs, toMs) holding at least one proof, oldest first. */
  buckets(wallet: string, bucketMs: number, fromMs: number, toMs: number): Promise<readonly ProofBucket[]>;
}
