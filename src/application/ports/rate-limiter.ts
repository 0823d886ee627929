/** The answer to "may this caller make one more request now?" */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (and, when refused, until a retry can succeed). */
  readonly resetS: number;
}

/**
 * The limits: `api` per credential (an IP where there is none), `wallet` per wallet across all
 * its credentials, `sign_in` per IP.
 */
export type RateBucket = 'api' | 'wallet' | 'sign_in';

/** Counts requests per key in a fixed window, one counter per bucket. */
export interface RateLimiter {
  consume(key: string, bucket: RateBucket): Promise<RateDecision>;
}
