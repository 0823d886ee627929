import { randomBytes } from 'node:crypto';
import test from 'ava';
import { Redis } from 'ioredis';
import { redisOwnerLookups } from '../../../src/adapters/rate-limit/redis-owner-lookups.js';
import { OwnerLookupLimit } from '../../../src/application/identity/owner-lookup-limit.js';
import { aWallet, ManualClock, MINT } from '../../support/identity.js';
import { startIdentityApp } from '../../support/identity-app.js';
import { redisTest, TEST_REDIS_URL } from '../../support/redis.js';

// A prefix of its own per run, so parallel runs and leftovers never share a count.
const prefix = `proof-registry-test:${process.pid}:${randomBytes(4).toString('hex')}`;
test.after.always(async () => {
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

redisTest('two instances on one Redis: a wallet gets ACCESS_CHECK_OWNERS_PER_MIN different owners between them, not each', async (t) => {
  const env = { REDIS_URL: TEST_REDIS_URL, ACCESS_CHECK_OWNERS_PER_MIN: '3' };
  const settings = { rateLimitKeyPrefix: `${prefix}:apps` };
  const one = await startIdentityApp(env, { settings });
  t.teardown(() => one.close());
  const two = await startIdentityApp(env, { settings });
  t.teardown(() => two.close());
  // Both clocks at the start of the same minute, so the window cannot turn during the test.
  const start = (Math.floor(Date.now() / 60_000) + 2) * 60_000 + 1_000;
  for (const app of [one, two]) app.clock.advance(start - app.clock.nowMs());
  const alice = aWallet(951);
  for (const app of [one, two]) await app.fund(alice, '50000');
  const keys = [(await one.apiKey(alice)).key, (await two.apiKey(alice)).key] as const;
  const ask = (i: 0 | 1, owner: number) =>
    [one, two][i]!.call('POST', '/v1/access/check', {
      credential: keys[i],
      wallet: alice.address,
      body: { owner: aWallet(960 + owner).address, mint: MINT, minimum: 1 },
    });

  t.is((await ask(0, 1)).status, 200);
  t.is((await ask(1, 2)).status, 200);
  t.is((await ask(0, 3)).status, 200);
  // Three owners in all: the fourth is refused on either instance.
  for (const i of [1, 0] as const) {
    const refused = await ask(i, 4);
    t.is(refused.status, 429);
    t.regex(refused.body.detail, /at most 3 different owners per minute/);
    t.true(Number(refused.headers.get('retry-after')) >= 1 && Number(refused.headers.get('retry-after')) <= 60);
  }
  // An owner looked up on one instance is free on the other.
  t.is((await ask(1, 1)).status, 200);
  t.is((await ask(0, 2)).status, 200);
  // Another wallet has an allowance of its own.
  const bob = aWallet(952);
  await two.fund(bob, '50000');
  const bobs = await two.apiKey(bob);
  t.is(
    (await two.call('POST', '/v1/access/check', { credential: bobs.key, wallet: bob.address, body: { owner: aWallet(964).address, mint: MINT, minimum: 1 } }))
      .status,
    200,
  );
  // A new minute, a new allowance, on both.
  for (const app of [one, two]) app.clock.advance(60_000);
  t.is((await ask(1, 4)).status, 200);
});

redisTest('concurrent lookups of new owners on two instances never let more than the limit through', async (t) => {
  const clock = new ManualClock((Math.floor(Date.now() / 60_000) + 2) * 60_000);
  const a = await redisOwnerLookups(TEST_REDIS_URL, clock, 5, { keyPrefix: `${prefix}:race`, fallback: new OwnerLookupLimit(clock, 5) });
  const b = await redisOwnerLookups(TEST_REDIS_URL, clock, 5, { keyPrefix: `${prefix}:race`, fallback: new OwnerLookupLimit(clock, 5) });
  t.teardown(() => Promise.all([a.close(), b.close()]));
  t.true(a.connected && b.connected, `Redis at ${TEST_REDIS_URL} must be reachable (set TEST_REDIS_URL)`);
  const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).lookups.admit('wallet-1', `owner-${i}`)));
  t.is(answers.filter((wait) => wait === null).length, 5);
});

test('when Redis does not answer, each instance still limits on its own', async (t) => {
  const clock = new ManualClock();
  const down = await redisOwnerLookups('redis://127.0.0.1:1', clock, 2, {
    keyPrefix: `${prefix}:down`,
    connectTimeoutMs: 300,
    fallback: new OwnerLookupLimit(clock, 2),
  });
  t.teardown(() => down.close());
  t.false(down.connected);
  const answers = [];
  for (const owner of ['o1', 'o2', 'o1', 'o3']) answers.push(await down.lookups.admit('wallet-1', owner));
  t.deepEqual(answers.slice(0, 3), [null, null, null]);
  t.true(answers[3]! >= 1 && answers[3]! <= 60);
});
