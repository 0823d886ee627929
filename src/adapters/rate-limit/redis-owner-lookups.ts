import type { Clock } from '../../application/ports/clock.js';
import type { OwnerLookups } from '../../application/ports/owner-lookups.js';
import { readyWithin, sharedLimitsClient } from './redis-client.js';

/**
 * One atomic step per lookup: an owner already in the wallet's set for this window is let
 * through without counting; a new one is added only while the set is below the limit. The set
 * expires with its window, so Redis holds at most `perMinute` owners per wallet that asked.
 * KEYS[1] the wallet's set for this window; ARGV: owner, limit, milliseconds to keep the set.
 */
const ADMIT = `
if redis.call('SISMEMBER', KEYS[1], ARGV[1]) == 1 then return 1 end
if redis.call('SCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('SADD', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`;

const WINDOW_MS = 60_000;

export interface RedisOwnerLookupsOptions {
  /** Asked instead while Redis does not answer: the in-memory limit of one instance, of the same size. */
  readonly fallback: OwnerLookups;
  readonly keyPrefix?: string;
  readonly connectTimeoutMs?: number;
}

export interface RedisOwnerLookups {
  readonly lookups: OwnerLookups;
  /** False when Redis did not answer at start; each instance then counts on its own until it does. */
  readonly connected: boolean;
  close(): Promise<void>;
}

/**
 * The owner-lookup limit shared by every instance through Redis (REDIS_URL), as the rate limits
 * are: N instances allow one wallet `perMinute` different owners a minute, not N times that.
 * Windows are fixed minutes of the instances' clocks. While Redis does not answer, each instance
 * counts on its own (`fallback`) rather than refusing every check or dropping the limit.
 */
export async function redisOwnerLookups(redisUrl: string, clock: Clock, perMinute: number, options: RedisOwnerLookupsOptions): Promise<RedisOwnerLookups> {
  const client = sharedLimitsClient(redisUrl, options.connectTimeoutMs ?? 2000);
  // The rate limiter already reports Redis going away and coming back; without a listener
  // ioredis would log every reconnect attempt.
  client.on('error', () => undefined);
  const connected = await readyWithin(client, options.connectTimeoutMs ?? 2000);
  const prefix = `${options.keyPrefix ?? 'proof-registry:rl'}:owners`;
  const lookups: OwnerLookups = {
    perMinute,
    admit: async (wallet, owner) => {
      const now = clock.nowMs();
      const window = Math.floor(now / WINDOW_MS);
      try {
        // Kept a window past its own, so a clock a little behind another instance's still finds it.
        const admitted = await client.eval(ADMIT, 1, `${prefix}:${window}:${wallet}`, owner, String(perMinute), String(2 * WINDOW_MS));
        return admitted === 1 ? null : Math.max(1, Math.ceil((WINDOW_MS - (now % WINDOW_MS)) / 1000));
      } catch {
        return options.fallback.admit(wallet, owner);
      }
    },
  };
  return {
    connected,
    lookups,
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
