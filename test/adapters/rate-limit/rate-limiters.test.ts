import { randomBytes } from 'node:crypto';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import test from 'ava';
import { Redis } from 'ioredis';
import { memoryRateLimiter } from '../../../src/adapters/rate-limit/memory-rate-limiter.js';
import { redisRateLimiter, type RedisConnectionChange, type RedisRateLimiter } from '../../../src/adapters/rate-limit/redis-rate-limiter.js';
import { redisTest, TEST_REDIS_URL } from '../../support/redis.js';

// A prefix of its own per run, so parallel runs and leftovers never share counters.
const prefix = `proof-registry-test:${process.pid}:${randomBytes(4).toString('hex')}`;
const opened: RedisRateLimiter[] = [];
test.after.always(async () => {
  await Promise.all(opened.map((o) => o.close()));
  const admin = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  admin.on('error', () => undefined);
  try {
    await admin.connect();
    const keys = await admin.keys(`${prefix}*`);
    if (keys.length) await admin.del(...keys);
  } catch {
    // Nothing to clean when Redis was never reachable; the tests that need it have failed.
  } finally {
    admin.disconnect();
  }
});

const limits = { perMinute: 5, walletPerMinute: 8, signInPerMinute: 2 };

test('memory: a key gets its limit per window, then 429-worthy refusals with a reset time', async (t) => {
  const limiter = memoryRateLimiter(limits);
  const decisions = [];
  for (let i = 0; i < 7; i++) decisions.push(await limiter.consume('key:a', 'api'));
  t.deepEqual(
    decisions.map((d) => d.allowed),
    [true, true, true, true, true, false, false],
  );
  t.deepEqual(
    decisions.slice(0, 5).map((d) => d.remaining),
    [4, 3, 2, 1, 0],
  );
  t.true(decisions.every((d) => d.limit === 5));
  t.true(decisions[5]!.resetS >= 1 && decisions[5]!.resetS <= 60);
});

test('memory: keys and buckets are counted separately; sign-in has its own, stricter limit', async (t) => {
  const limiter = memoryRateLimiter(limits);
  for (let i = 0; i < 5; i++) await limiter.consume('key:a', 'api');
  t.false((await limiter.consume('key:a', 'api')).allowed);
  t.true((await limiter.consume('key:b', 'api')).allowed);
  t.true((await limiter.consume('ip:1', 'sign_in')).allowed);
  t.true((await limiter.consume('ip:1', 'sign_in')).allowed);
  const third = await limiter.consume('ip:1', 'sign_in');
  t.false(third.allowed);
  t.is(third.limit, 2);
  t.true((await limiter.consume('ip:1', 'api')).allowed);
});

redisTest('redis: two instances sharing Redis enforce one limit between them', async (t) => {
  const a = await redisRateLimiter(TEST_REDIS_URL, limits, { keyPrefix: `${prefix}:shared` });
  const b = await redisRateLimiter(TEST_REDIS_URL, limits, { keyPrefix: `${prefix}:shared` });
  opened.push(a, b);
  t.true(a.connected && b.connected, `Redis at ${TEST_REDIS_URL} must be reachable (set TEST_REDIS_URL)`);
  const key = 'key:shared';
  const order = [a, b, a, b, a, b, a];
  const decisions = [];
  for (const instance of order) decisions.push(await instance.limiter.consume(key, 'api'));
  // Five in all across both instances, not five each.
  t.deepEqual(
    decisions.map((d) => d.allowed),
    [true, true, true, true, true, false, false],
  );
  t.deepEqual(
    decisions.slice(0, 5).map((d) => d.remaining),
    [4, 3, 2, 1, 0],
  );
  t.true(decisions[6]!.resetS >= 1 && decisions[6]!.resetS <= 60);
  // The sign-in bucket is a separate counter in Redis too.
  t.true((await a.limiter.consume(key, 'sign_in')).allowed);
});

redisTest('redis: concurrent requests on two instances never exceed the limit', async (t) => {
  const a = await redisRateLimiter(TEST_REDIS_URL, limits, { keyPrefix: `${prefix}:race` });
  const b = await redisRateLimiter(TEST_REDIS_URL, limits, { keyPrefix: `${prefix}:race` });
  opened.push(a, b);
  const decisions = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).limiter.consume('key:race', 'api')));
  t.is(decisions.filter((d) => d.allowed).length, 5);
});

test('redis: when Redis does not answer, each instance falls back to its own in-memory limit', async (t) => {
  const down = await redisRateLimiter('redis://127.0.0.1:1', limits, { keyPrefix: `${prefix}:down`, connectTimeoutMs: 300 });
  t.false(down.connected);
  opened.push(down);
  const decisions = [];
  for (let i = 0; i < 6; i++) decisions.push(await down.limiter.consume('key:x', 'api'));
  t.deepEqual(
    decisions.map((d) => d.allowed),
    [true, true, true, true, true, false],
  );
});

/**
 * A TCP relay in front of the test Redis, to take "Redis" away and bring it back without
 * touching the Redis other tests use. `down()` cuts every connection; while down, each new
 * connection is counted as an attempt and cut at once.
 */
async function redisRelay(): Promise<{ url: string; nextAttempt(): Promise<void>; down(): void; up(): void; close(): Promise<void> }> {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<Socket>();
  let isUp = true;
  let attempted: (() => void) | undefined;
  const server: Server = createServer((client) => {
    client.on('error', () => undefined);
    if (!isUp) {
      client.destroy();
      attempted?.();
      return;
    }
    const upstream = connect(Number(target.port || 6379), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => {
        sockets.delete(socket);
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const down = () => {
    isUp = false;
    for (const socket of sockets) socket.destroy();
  };
  return {
    url: `redis://127.0.0.1:${(server.address() as AddressInfo).port}`,
    nextAttempt: () => new Promise<void>((resolve) => (attempted = resolve)),
    down,
    up: () => void (isUp = true),
    close: async () => {
      down();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Connection changes as they are reported, and a way to wait for the next one. */
function changeLog(): { changes: RedisConnectionChange[]; record(change: RedisConnectionChange): void; next(): Promise<void> } {
  const changes: RedisConnectionChange[] = [];
  let waiting: (() => void) | undefined;
  return {
    changes,
    record: (change) => {
      changes.push(change);
      waiting?.();
    },
    next: () => new Promise<void>((resolve) => (waiting = resolve)),
  };
}

redisTest('redis: losing Redis and getting it back are reported once each, and limits go on meanwhile', async (t) => {
  const relay = await redisRelay();
  const log = changeLog();
  const limiter = await redisRateLimiter(relay.url, limits, { keyPrefix: `${prefix}:outage`, onConnectionChange: log.record });
  opened.push(limiter);
  t.true(limiter.connected, `Redis at ${TEST_REDIS_URL} must be reachable (set TEST_REDIS_URL)`);
  t.deepEqual(log.changes, [], 'a start with Redis reports nothing');

  const lost = log.next();
  relay.down();
  await lost;
  t.is(log.changes[0]!.state, 'lost');
  // Requests are still limited, by this instance's own counter.
  const decisions = [];
  for (let i = 0; i < 6; i++) decisions.push(await limiter.limiter.consume('key:outage', 'api'));
  t.deepEqual(
    decisions.map((d) => d.allowed),
    [true, true, true, true, true, false],
  );
  // ioredis keeps trying to reconnect; three failed attempts later, still one report.
  for (let i = 0; i < 3; i++) await relay.nextAttempt();
  t.is(log.changes.length, 1);

  const restored = log.next();
  relay.up();
  await restored;
  t.deepEqual(log.changes, [log.changes[0], { state: 'restored' }]);
  await relay.close();
});

redisTest('redis: an instance that started without Redis reports when Redis first answers', async (t) => {
  const relay = await redisRelay();
  relay.down();
  const log = changeLog();
  const limiter = await redisRateLimiter(relay.url, limits, { keyPrefix: `${prefix}:late`, connectTimeoutMs: 300, onConnectionChange: log.record });
  opened.push(limiter);
  t.false(limiter.connected);
  t.deepEqual(log.changes, []);
  const restored = log.next();
  relay.up();
  await restored;
  t.deepEqual(log.changes, [{ state: 'restored' }]);
  await relay.close();
});

test('memory: the wallet bucket counts apart from the per-credential one', async (t) => {
  const limiter = memoryRateLimiter(limits);
  const decisions = [];
  for (let i = 0; i < 9; i++) decisions.push((await limiter.consume('wallet-w', 'wallet')).allowed);
  t.deepEqual(decisions, [true, true, true, true, true, true, true, true, false]);
  t.true((await limiter.consume('wallet-w', 'api')).allowed);
});

redisTest('redis: two instances share one wallet limit', async (t) => {
  const a = await redisRateLimiter(TEST_REDIS_URL, limits, { keyPrefix: `${prefix}:wallet` });
  const b = await redisRateLimiter(TEST_REDIS_URL, limits, { keyPrefix: `${prefix}:wallet` });
  opened.push(a, b);
  const decisions = [];
  for (let i = 0; i < 10; i++) decisions.push((await (i % 2 ? a : b).limiter.consume('wallet-w', 'wallet')).allowed);
  t.is(decisions.filter(Boolean).length, 8);
  t.deepEqual(decisions.slice(8), [false, false]);
});
