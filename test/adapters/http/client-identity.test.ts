import test, { type ExecutionContext } from 'ava';
import { aWallet, MINT } from '../../support/identity.js';
import { startIdentityApp, type IdentityApp } from '../../support/identity-app.js';

let next = 700;
const newWallet = () => aWallet(next++);
async function fresh(t: ExecutionContext, env: Record<string, string> = {}): Promise<IdentityApp> {
  const app = await startIdentityApp(env);
  t.teardown(() => app.close());
  return app;
}

const connect = (app: IdentityApp, forwardedFor: string) =>
  app.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: newWallet().address }, headers: { 'x-forwarded-for': forwardedFor } });

test('behind one proxy, a client that writes its own X-Forwarded-For entries gets no more than the limit', async (t) => {
  const app = await fresh(t, { TRUST_PROXY: 'true', SIGN_IN_RATE_LIMIT_PER_MIN: '5' });
  const statuses = [];
  // The proxy appends the address it saw (203.0.113.7); whatever the client put before it chooses nothing.
  for (let i = 0; i < 12; i++) statuses.push((await connect(app, `198.51.100.${i}, 203.0.113.7`)).status);
  t.deepEqual(statuses, [200, 200, 200, 200, 200, 429, 429, 429, 429, 429, 429, 429]);
  // Another client behind the same proxy has a limit of its own.
  t.is((await connect(app, '203.0.113.8')).status, 200);
});

test('TRUST_PROXY=2 counts two entries from the right: the address the outer proxy saw', async (t) => {
  const app = await fresh(t, { TRUST_PROXY: '2', SIGN_IN_RATE_LIMIT_PER_MIN: '3' });
  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await connect(app, `10.9.9.${i}, 203.0.113.7, 10.0.0.2`)).status);
  t.deepEqual(statuses, [200, 200, 200, 429, 429]);
  t.is((await connect(app, '203.0.113.9, 10.0.0.2')).status, 200);
});

test('a wallet with several keys has one limit across them, besides each key its own', async (t) => {
  const app = await fresh(t, { RATE_LIMIT_PER_MIN: '100', WALLET_RATE_LIMIT_PER_MIN: '12' });
  const alice = newWallet();
  await app.fund(alice, '50000');
  const keys = [await app.apiKey(alice, 'a'), await app.apiKey(alice, 'b'), await app.apiKey(alice, 'c')];
  const replies = [];
  for (let i = 0; i < 15; i++) replies.push(await app.call('GET', '/v1/proofs', { credential: keys[i % 3]!.key, wallet: alice.address }));
  const allowed = replies.filter((r) => r.status === 200).length;
  // Creating the three keys took three of the wallet's twelve (made with its dashboard token).
  t.is(allowed, 9);
  t.deepEqual(
    replies.slice(allowed).map((r) => r.status),
    [429, 429, 429, 429, 429, 429],
  );
  t.is(replies[allowed]!.headers.get('ratelimit-limit'), '12');
  t.truthy(replies[allowed]!.headers.get('retry-after'));
  // Another wallet is not touched by alice's limit.
  const bob = newWallet();
  await app.fund(bob, '50000');
  const bobs = await app.apiKey(bob);
  t.is((await app.call('GET', '/v1/proofs', { credential: bobs.key, wallet: bob.address })).status, 200);
});

test('access checks: a wallet may look up only so many different owners a minute; asking again is free', async (t) => {
  const app = await fresh(t, { ACCESS_CHECK_OWNERS_PER_MIN: '3' });
  const alice = newWallet();
  await app.fund(alice, '50000');
  const { key } = await app.apiKey(alice);
  const owners = [newWallet(), newWallet(), newWallet(), newWallet()];
  const ask = (owner: string) => app.call('POST', '/v1/access/check', { credential: key, wallet: alice.address, body: { owner, mint: MINT, minimum: 1 } });
  for (const owner of owners.slice(0, 3)) t.is((await ask(owner.address)).status, 200);
  t.is((await ask(owners[0]!.address)).status, 200, 'an owner already looked up this minute');
  const refused = await ask(owners[3]!.address);
  t.is(refused.status, 429);
  t.is(refused.body.code, 'rate_limited');
  t.regex(refused.body.detail, /at most 3 different owners per minute/);
  t.true(Number(refused.headers.get('retry-after')) >= 1);
  app.clock.advance(60_000);
  t.is((await ask(owners[3]!.address)).status, 200, 'a new minute, a new allowance');
});

test('a flood of access checks about new owners does not evict an admitted wallet: its grace pass holds through an outage', async (t) => {
  const app = await fresh(t, { ACCESS_CHECK_CACHE_ENTRIES: '20', ACCESS_CHECK_OWNERS_PER_MIN: '1000' });
  const alice = newWallet();
  const mallory = newWallet();
  await app.fund(alice, '50000');
  await app.fund(mallory, '50000');
  const aliceKey = (await app.apiKey(alice)).key;
  const malloryKey = (await app.apiKey(mallory)).key;
  // Alice is admitted, so the gate holds a pass for her.
  t.is((await app.call('GET', '/v1/proofs', { credential: aliceKey, wallet: alice.address })).status, 200);
  // Mallory asks about three times as many owners as the access-check cache holds.
  for (let i = 0; i < 60; i++) {
    const r = await app.call('POST', '/v1/access/check', {
      credential: malloryKey,
      wallet: mallory.address,
      body: { owner: aWallet(10_000 + i).address, mint: MINT, minimum: 1 },
    });
    t.is(r.status, 200);
  }
  app.balances.failWith('unreachable');
  app.clock.advance(61_000);
  const during = await app.call('GET', '/v1/proofs', { credential: aliceKey, wallet: alice.address });
  t.is(during.status, 200, JSON.stringify(during.body));
});
