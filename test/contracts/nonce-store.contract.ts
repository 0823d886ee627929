import test from 'ava';
import type { NonceStore, SignInChallenge } from '../../src/application/ports/nonce-store.js';
import type { DeclareTest } from '../support/databases.js';
import { WALLET_A } from '../support/mothers.js';

let counter = 0;
export function aChallenge(over: Partial<SignInChallenge> = {}): SignInChallenge {
  const n = ++counter;
  return {
    nonce: `Nonce${n.toString().padStart(19, '0')}`,
    wallet: WALLET_A,
    message: `example.com wants you to sign in with your Solana account:\n${WALLET_A}\n\nnonce ${n} ✓`,
    issuedAtMs: 1_790_000_000_000,
    expiresAtMs: 1_790_000_300_000,
    ...over,
  };
}

/** The NonceStore contract; `make` returns an empty store. */
export function nonceStoreContract(name: string, make: () => Promise<NonceStore>, testFn: DeclareTest = test): void {
  testFn(`${name}: a saved challenge is found as issued, unused`, async (t) => {
    const store = await make();
    const c = aChallenge();
    await store.save(c);
    t.deepEqual(await store.find(c.nonce), { ...c, consumedAtMs: null });
    t.is(await store.find('unknown'), null);
  });

  testFn(`${name}: nonces are unique`, async (t) => {
    const store = await make();
    const c = aChallenge();
    await store.save(c);
    await t.throwsAsync(store.save({ ...c, wallet: 'other' }));
  });

  testFn(`${name}: a challenge is consumed once`, async (t) => {
    const store = await make();
    const c = aChallenge();
    await store.save(c);
    t.true(await store.consume(c.nonce, c.issuedAtMs + 1_000));
    t.false(await store.consume(c.nonce, c.issuedAtMs + 2_000));
    t.is((await store.find(c.nonce))?.consumedAtMs, c.issuedAtMs + 1_000);
    t.false(await store.consume('unknown', c.issuedAtMs));
  });

  testFn(`${name}: an expired challenge cannot be consumed, not even at the expiry instant`, async (t) => {
    const store = await make();
    const c = aChallenge();
    await store.save(c);
    t.false(await store.consume(c.nonce, c.expiresAtMs));
    t.false(await store.consume(c.nonce, c.expiresAtMs + 1));
    t.true(await store.consume(c.nonce, c.expiresAtMs - 1));
  });

  testFn(`${name}: of many concurrent consumes exactly one wins`, async (t) => {
    const store = await make();
    const c = aChallenge();
    await store.save(c);
    const results = await Promise.all(Array.from({ length: 25 }, () => store.consume(c.nonce, c.issuedAtMs + 1)));
    t.is(results.filter(Boolean).length, 1);
  });

  testFn(`${name}: deleteExpired forgets only challenges that expired before the cut-off`, async (t) => {
    const store = await make();
    const old = aChallenge({ expiresAtMs: 1_000 });
    const edge = aChallenge({ expiresAtMs: 2_000 });
    const live = aChallenge({ expiresAtMs: 3_000 });
    for (const c of [old, edge, live]) await store.save(c);
    t.is(await store.deleteExpired(2_000), 1);
    t.is(await store.find(old.nonce), null);
    t.truthy(await store.find(edge.nonce));
    t.truthy(await store.find(live.nonce));
  });
}
