import { RateLimiterMemory } from 'rate-limiter-flexible';
import { FlexibleRateLimiter, WINDOW_S, type RateLimits } from './limits.js';

/** Per-process limits: the default, right for a single instance. */
export function memoryRateLimiter(limits: RateLimits): FlexibleRateLimiter {
  return new FlexibleRateLimiter({
    api: new RateLimiterMemory({ keyPrefix: 'api', points: limits.perMinute, duration: WINDOW_S }),
    wallet: new RateLimiterMemory({ keyPrefix: 'wallet', points: limits.walletPerMinute, duration: WINDOW_S }),
    sign_in: new RateLimiterMemory({ keyPrefix: 'sign_in', points: limits.signInPerMinute, duration: WINDOW_S }),
  });
}
