import { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis } from 'rate-limiter-flexible';
import { FlexibleRateLimiter, WINDOW_S, type RateLimits } from './limits.js';

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
export async function redisRateLimiter(redisUrl: string, limits: RateLimits, options: { keyPrefix?: string; connectTimeoutMs?: number } = {}): Promise<RedisRateLimiter> {
  const client = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: options.connectTimeoutMs ?? 2000,
    commandTimeout: 1000,
    lazyConnect: false,
  });
  // Errors surface through the insurance limiter; without a listener ioredis would log each one.
  client.on('error', () => undefined);
  const prefix = options.keyPrefix ?? 'proof-registry:rl';
  const bucket = (name: 'api' | 'sign_in', points: number) =>
    new RateLimiterRedis({
      storeClient: client,
      keyPrefix: `${prefix}:${name}`,
      points,
      duration: WINDOW_S,
      rejectIfRedisNotReady: true,
      insuranceLimiter: new RateLimiterMemory({ keyPrefix: `${name}-insurance`, points, duration: WINDOW_S }),
    });
  // Requests made before the connection is ready would go to the fallback; wait (boundedly)
  // so a healthy Redis is in use from the first request.
  const connected = await new Promise<boolean>((resolve) => {
    if (client.status === 'ready') return resolve(true);
    const timer = setTimeout(() => resolve(false), options.connectTimeoutMs ?? 2000);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
  return {
    connected,
    limiter: new FlexibleRateLimiter({ api: bucket('api', limits.perMinute), sign_in: bucket('sign_in', limits.signInPerMinute) }),
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
