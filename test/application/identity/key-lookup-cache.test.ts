import test from 'ava';
import { KeyLookupCache } from '../../../src/application/identity/key-lookup-cache.js';
import type { ApiKeyRecord } from '../../../src/application/ports/key-store.js';
import { MemoryKeyStore } from '../../../src/adapters/memory/memory-key-store.js';
import { ManualClock } from '../../support/identity.js';
import { WALLET_A } from '../../support/mothers.js';

/** The memory store, counting lookups; `hold` makes lookups wait until released. */
class CountingStore extends MemoryKeyStore {
  lookups = 0;
  private gate: Promise<void> | null = null;
  private open: (() => void) | null = null;
  hold(): void {
    this.gate = new Promise((resolve) => (this.open = resolve));
  }
  release(): void {
    this.open?.();
    this.gate = null;
  }
  override async findByHash(keyHash: string): Promise<ApiKeyRecord | null> {
    this.lookups++;
    const found = await super.findByHash(keyHash);
    if (this.gate) await this.gate;
    return found;
  }
}

const key = (n: number): ApiKeyRecord => ({
  keyId: `key_${n}`,
  wallet: WALLET_A,
  name: `k${n}`,
  prefix: 'pr_live_abc',
  keyHash: n.toString(16).padStart(64, '0'),
  createdAtMs: 1,
  lastUsedAtMs: null,
  requestCount: 0,
  errorCount: 0,
  scopes: null,
  robotIds: null,
  expiresAtMs: null,
  disabledAtMs: null,
});

const setup = async (ttlMs = 5_000) => {
  const store = new CountingStore();
  const clock = new ManualClock();
  const cache = new KeyLookupCache(store, clock, { ttlMs });
  await cache.create(key(1));
  return { store, clock, cache };
};

test('a key that authenticated is served from memory until its time is up', async (t) => {
  const { store, clock, cache } = await setup();
  for (let i = 0; i < 5; i++) t.is((await cache.findByHash(key(1).keyHash))?.keyId, 'key_1');
  t.is(store.lookups, 1);
  clock.advance(5_000);
  t.is((await cache.findByHash(key(1).keyHash))?.keyId, 'key_1');
  t.is(store.lookups, 2);
});

test('an unknown key is not remembered: a key created later works at once', async (t) => {
  const { store, cache } = await setup();
  t.is(await cache.findByHash(key(2).keyHash), null);
  await store.create(key(2)); // e.g. created through another instance
  t.is((await cache.findByHash(key(2).keyHash))?.keyId, 'key_2');
});

test('a key deleted through the cache is refused at once', async (t) => {
  const { cache } = await setup();
  await cache.findByHash(key(1).keyHash);
  t.true(await cache.delete(WALLET_A, 'key_1', 1_790_000_000_000));
  t.is(await cache.findByHash(key(1).keyHash), null);
});

test('a key deleted elsewhere is refused once its time is up', async (t) => {
  const { store, clock, cache } = await setup();
  await cache.findByHash(key(1).keyHash);
  await store.delete(WALLET_A, 'key_1', 1_790_000_000_000); // another instance
  t.not(await cache.findByHash(key(1).keyHash), null);
  clock.advance(5_000);
  t.is(await cache.findByHash(key(1).keyHash), null);
});

test('concurrent lookups of one key share one query', async (t) => {
  const { store, cache } = await setup();
  store.hold();
  const answers = Array.from({ length: 10 }, () => cache.findByHash(key(1).keyHash));
  store.release();
  t.deepEqual(
    (await Promise.all(answers)).map((r) => r?.keyId),
    Array(10).fill('key_1'),
  );
  t.is(store.lookups, 1);
});

test('a lookup that was on its way during a delete does not put the key back', async (t) => {
  const { store, cache } = await setup();
  store.hold();
  const racing = cache.findByHash(key(1).keyHash);
  await new Promise((resolve) => setImmediate(resolve));
  const deleted = cache.delete(WALLET_A, 'key_1', 1_790_000_000_000);
  store.release();
  await racing;
  t.true(await deleted);
  t.is(await cache.findByHash(key(1).keyHash), null);
});

test('with a time of 0 every lookup goes to the store', async (t) => {
  const { store, cache } = await setup(0);
  await cache.findByHash(key(1).keyHash);
  await cache.findByHash(key(1).keyHash);
  t.is(store.lookups, 2);
});

test('the oldest key goes when the cache is full', async (t) => {
  const store = new CountingStore();
  const cache = new KeyLookupCache(store, new ManualClock(), { ttlMs: 5_000, maxEntries: 2 });
  for (const n of [1, 2, 3]) await cache.create(key(n));
  for (const n of [1, 2, 3]) await cache.findByHash(key(n).keyHash);
  t.is(store.lookups, 3);
  await cache.findByHash(key(3).keyHash);
  t.is(store.lookups, 3);
  await cache.findByHash(key(1).keyHash);
  t.is(store.lookups, 4);
});
