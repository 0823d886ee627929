import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { RateBucket, RateDecision, RateLimiter } from '../../application/ports/rate-limiter.js';

export interface RateLimits {
  /** Requests per minute per credential (per IP when there is none). */
  readonly perMinute: number;
  /** Requests per minute per wallet, across all its keys and tokens: a wallet with many keys gets no more. */
  readonly walletPerMinute: number;
  /** Sign-in requests per minute per IP: stricter, since sign-in needs no credential. */
  readonly signInPerMinute: number;
}

export const WINDOW_S = 60;

/** The RateLimiter port over two rate-limiter-flexible limiters, one per bucket. */
export class FlexibleRateLimiter implements RateLimiter {
  constructor(private readonly buckets: Readonly<Record<RateBucket, RateLimiterAbstract>>) {}

  async consume(key: string, bucket: RateBucket): Promise<RateDecision> {
    const limiter = this.buckets[bucket];
    try {
      return decision(limiter.points, await limiter.consume(key), true);
    } catch (rejection) {
      // The library rejects with a RateLimiterRes when the limit is hit, and with an Error when
      // its store fails (the insurance limiter, if any, has then already been asked).
      if (rejection instanceof RateLimiterRes) return decision(limiter.points, rejection, false);
      throw rejection;
    }
  }
}

function decision(limit: number, res: RateLimiterRes, allowed: boolean): RateDecision {
  return { allowed, limit, remaining: Math.max(0, res.remainingPoints), resetS: Math.max(1, Math.ceil(res.msBeforeNext / 1000)) };
}
