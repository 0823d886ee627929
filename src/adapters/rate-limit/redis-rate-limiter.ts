import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import type { RateBucket } from '../../application/ports/rate-limiter.js';
import { FlexibleRateLimiter, WINDOW_S, type RateLimits } from './limits.js';
import { readyWithin, sharedLimitsClient } from './redis-client.js';

/** Redis stopped answering (limits are then per instance), or answers again (shared again). */
export type RedisConnectionChange = { readonly state: 'lost'; readonly reason: string } | { readonly state: 'restored' };

export interface RedisRateLimiterOptions {
  readonly keyPrefix?: string;
  readonly connectTimeoutMs?: number;
  /**
   * Told once when a working connection is lost and once when it is back (not on every
   * reconnect attempt in between), and `restored` when Redis first answers after a start
   * without it.
   */
  readonly onConnectionChange?: (change: RedisConnectionChange) => void;
}

export interface RedisRateLimiter {
  readonly limiter: FlexibleRateLimiter;
  /** False when Redis did not answer at start; the in-memory fallback is then in use until it does. */
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * Limits shared by every instance through Redis (REDIS_URL): each consume is one atomic Lua
 * INCR with expiry, so N instances enforce one limit, not N. If Redis stops answering, each
 * instance falls back to its own in-memory limit (the insurance limiter) rather than failing
 * every request or dropping the limit altogether.
 */
export async function redisRateLimiter(redisUrl: string, limits: RateLimits, options: RedisRateLimiterOptions = {}): Promise<RedisRateLimiter> {
  const client = sharedLimitsClient(redisUrl, options.connectTimeoutMs ?? 2000);
  // Errors surface through the insurance limiter and, once per outage, through
  // onConnectionChange; without a listener ioredis would log every reconnect attempt.
  let up = false;
  let started = false;
  let lastError = '';
  let closing = false;
  client.on('error', (err: Error) => {
    lastError = err.message;
  });
  client.on('ready', () => {
    if (up) return;
    up = true;
    lastError = '';
    if (started) options.onConnectionChange?.({ state: 'restored' });
  });
  client.on('close', () => {
    if (!up || closing) return;
    up = false;
    options.onConnectionChange?.({ state: 'lost', reason: lastError || 'connection closed' });
  });
  const prefix = options.keyPrefix ?? 'proof-registry:rl';
  const bucket = (name: RateBucket, points: number) =>
    new RateLimiterRedis({
      storeClient: client,
      keyPrefix: `${prefix}:${name}`,
      points,
      duration: WINDOW_S,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${name}-insurance`, points, duration: WINDOW_S }),
    });
  const connected = await readyWithin(client, options.connectTimeoutMs ?? 2000);
  started = true;
  return {
    connected,
    limiter: new FlexibleRateLimiter({
      api: bucket('api', limits.perMinute),
      wallet: bucket('wallet', limits.walletPerMinute),
      sign_in: bucket('sign_in', limits.signInPerMinute),
    }),
    close: async () => {
      closing = true;
      await client.quit().catch(() => client.disconnect());
    },
  };
}
