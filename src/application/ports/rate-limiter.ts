/** The answer to "may this caller make one more request now?" */
export interface RateDecision {
  readonly allowed: boolean;
  readonly limit: number;
  readonly remaining: number;
  /** Seconds until the window resets (and, when refused, until a retry can succeed). */
  readonly resetS: number;
}

/** Counts requests per key (a credential, or an IP where there is none) in a fixed window. */
export interface RateLimiter {
  consume(key: string, bucket: 'api' | 'sign_in'): Promise<RateDecision>;
}
