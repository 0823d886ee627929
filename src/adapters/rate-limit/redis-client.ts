import { Redis } from 'ioredis';

/**
 * A connection for the limits shared through Redis: no offline queue and one retry, so a
 * command fails at once while Redis is away and its caller falls back to its own in-memory
 * limit, and a second at most per command.
 */
export function sharedLimitsClient(redisUrl: string, connectTimeoutMs: number): Redis {
  return new Redis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: connectTimeoutMs, commandTimeout: 1000 });
}

/**
 * True once `client` is ready, false after `timeoutMs` without it. Requests made before would
 * go to the fallback: waiting (boundedly) puts a healthy Redis in use from the first request.
 */
export function readyWithin(client: Redis, timeoutMs: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    if (client.status === 'ready') return resolve(true);
    const timer = setTimeout(() => resolve(false), timeoutMs);
    client.once('ready', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}
