import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { BalanceCache } from '../../../src/application/identity/balance-cache.js';
import { TokenGate } from '../../../src/application/identity/token-gate.js';
import { MemoryTokenBalance } from '../../../src/adapters/memory/memory-token-balance.js';
import { amount, ManualClock, MINT, RecordingMetrics } from '../../support/identity.js';
import { WALLET_A, WALLET_B } from '../../support/mothers.js';

function setup(options: { ttlS?: number; graceS?: number; maxEntries?: number; reuseFrom?: number } = {}) {
  const clock = new ManualClock();
  const source = new MemoryTokenBalance();
  const metrics = new RecordingMetrics();
  const cache = new BalanceCache(
    source,
    clock,
    {
      ttlS: options.ttlS ?? 60,
      graceS: options.graceS ?? 600,
      retryBackoffMs: 2_000,
      ...(options.maxEntries ? { maxEntries: options.maxEntries } : {}),
      ...(options.reuseFrom !== undefined ? { reuseFrom: options.reuseFrom } : {}),
    },
    metrics,
  );
  const gate = new TokenGate(cache, { mint: MINT, minimum: 50_000 }, metrics);
  const fund = (wallet: string, text: string) => source.set(wallet, MINT, amount(text), clock.nowMs());
  return { clock, source, metrics, cache, gate, fund };
}

test('an answer is reused for the TTL, then fetched again', async (t) => {
  const { clock, source, cache, fund, metrics } = setup();
  await fund(WALLET_A, '50000');
  t.is((await cache.lookup(WALLET_A, MINT))._tag, 'Fresh');
  await fund(WALLET_A, '10');
  clock.advance(59_999);
  t.like(await cache.lookup(WALLET_A, MINT), { _tag: 'Fresh', amount: { raw: 50_000n } });
  t.is(source.calls, 1);
  clock.advance(1);
  t.like(await cache.lookup(WALLET_A, MINT), { _tag: 'Fresh', amount: { raw: 10n } });
  t.is(source.calls, 2);
  t.deepEqual(metrics.lookups, ['miss', 'hit', 'miss']);
});

test('by default a refusal is reused for the TTL too: a wallet funded meanwhile waits for it', async (t) => {
  const { clock, source, gate, fund } = setup();
  await fund(WALLET_A, '10');
  t.like(await gate.admit(WALLET_A), { _tag: 'Left', left: { _tag: 'InsufficientBalance' } });
  await fund(WALLET_A, '50000');
  clock.advance(59_999);
  t.like(await gate.admit(WALLET_A), { _tag: 'Left', left: { _tag: 'InsufficientBalance', balance: 10 } });
  t.is(source.calls, 1);
  clock.advance(1);
  t.like(await gate.admit(WALLET_A), { _tag: 'Right', right: { allowed: true, balance: 50_000 } });
});

test('with reuseFrom, a balance below it is asked again at the next lookup, and one that meets it is reused for the TTL', async (t) => {
  const { source, gate, fund, metrics } = setup({ reuseFrom: 50_000 });
  await fund(WALLET_A, '49999.5');
  t.like(await gate.admit(WALLET_A), { _tag: 'Left', left: { _tag: 'InsufficientBalance' } });
  t.like(await gate.admit(WALLET_A), { _tag: 'Left', left: { _tag: 'InsufficientBalance' } });
  t.is(source.calls, 2);
  // Funded a moment after the refusal: in at once.
  await fund(WALLET_A, '50000');
  t.like(await gate.admit(WALLET_A), { _tag: 'Right', right: { allowed: true, balance: 50_000 } });
  t.is(source.calls, 3);
  // A pass is reused as before: a lowered balance shows after the TTL.
  await fund(WALLET_A, '10');
  t.like(await gate.admit(WALLET_A), { _tag: 'Right', right: { allowed: true } });
  t.is(source.calls, 3);
  t.deepEqual(metrics.lookups, ['miss', 'miss', 'miss', 'hit']);
});

test('concurrent lookups of one wallet share one call to the source', async (t) => {
  const { source, cache, fund, metrics } = setup();
  await fund(WALLET_A, '50000');
  source.hold();
  const lookups = Promise.all(Array.from({ length: 10 }, () => cache.lookup(WALLET_A, MINT)));
  const other = cache.lookup(WALLET_B, MINT);
  await new Promise((resolve) => setImmediate(resolve));
  source.release();
  const results = await lookups;
  await other;
  t.true(results.every((r) => r._tag === 'Fresh'));
  t.is(source.calls, 2); // one for A, one for B
  t.is(metrics.lookups.filter((l) => l === 'coalesced').length, 9);
});

test('a TTL of 0 asks the source every time', async (t) => {
  const { source, cache } = setup({ ttlS: 0 });
  await cache.lookup(WALLET_A, MINT);
  await cache.lookup(WALLET_A, MINT);
  t.is(source.calls, 2);
});

test('source down and nothing known: Unavailable with a retry hint, never a zero', async (t) => {
  const { source, cache, gate, metrics } = setup();
  source.failWith('timeout');
  t.deepEqual(await cache.lookup(WALLET_A, MINT), { _tag: 'Unavailable', retryAfterS: 2 });
  t.deepEqual(await gate.admit(WALLET_A), E.left({ _tag: 'BalanceUnavailable', retryAfterS: 2 }));
  t.true(metrics.decisions.includes('unavailable'));
});

test('source down after a pass: admitted through the grace period, then refused with 503', async (t) => {
  const { clock, source, gate, fund, metrics } = setup({ ttlS: 60, graceS: 600 });
  await fund(WALLET_A, '60000');
  t.true(E.isRight(await gate.admit(WALLET_A)));
  source.failWith('unreachable');
  clock.advance(60_000 + 600_000 - 1);
  const during = await gate.admit(WALLET_A);
  t.true(E.isRight(during) && during.right.grace);
  clock.advance(2_001);
  t.like(await gate.admit(WALLET_A), { _tag: 'Left', left: { _tag: 'BalanceUnavailable' } });
  t.deepEqual(metrics.decisions, ['allowed', 'grace', 'unavailable']);
});

test('source down after a refusal: not admitted (only a pass is carried over)', async (t) => {
  const { clock, source, gate, fund } = setup();
  await fund(WALLET_A, '49999');
  t.like(await gate.admit(WALLET_A), { _tag: 'Left', left: { _tag: 'InsufficientBalance', required: 50_000, balance: 49_999 } });
  source.failWith('unreachable');
  clock.advance(61_000);
  t.like(await gate.admit(WALLET_A), { _tag: 'Left', left: { _tag: 'BalanceUnavailable' } });
});

test('after a failure the source is left alone for the back-off, then asked again', async (t) => {
  const { clock, source, cache, fund } = setup();
  source.failWith('timeout');
  await cache.lookup(WALLET_A, MINT);
  await cache.lookup(WALLET_A, MINT);
  t.is(source.calls, 1);
  clock.advance(2_000);
  source.failWith(null);
  await fund(WALLET_A, '5');
  t.like(await cache.lookup(WALLET_A, MINT), { _tag: 'Fresh', amount: { raw: 5n } });
  t.is(source.calls, 2);
});

test('the gate: 49,999 is refused with both amounts, 50,000 passes', async (t) => {
  const { gate, fund } = setup();
  await fund(WALLET_A, '49999');
  await fund(WALLET_B, '50000');
  t.deepEqual(await gate.admit(WALLET_A), E.left({ _tag: 'InsufficientBalance', required: 50_000, balance: 49_999 }));
  t.like(await gate.admit(WALLET_B), { _tag: 'Right', right: { allowed: true, balance: 50_000, grace: false } });
});

test('the cache remembers a bounded number of wallets', async (t) => {
  const { source, cache } = setup({ maxEntries: 2 });
  const w = (i: number) => `Wallet${i}`;
  for (const i of [1, 2, 3]) await cache.lookup(w(i), MINT);
  await cache.lookup(w(3), MINT);
  await cache.lookup(w(2), MINT);
  t.is(source.calls, 3);
  await cache.lookup(w(1), MINT); // evicted
  t.is(source.calls, 4);
});
