import { createHmac } from 'node:crypto';
import test from 'ava';
import * as c from '../../../src/adapters/http/codecs/identity.codecs.js';
import { MINT, OTHER_MINT } from '../../support/identity.js';
import { conforms } from '../../support/conforms.js';
import { fresh, funded, newWallet } from './identity-routes-support.js';

test("a replayed sign-in is 401; so are an unknown nonce, an expired or altered challenge and another key's signature", async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const mallory = await funded(app);
  const connect = async () =>
    (await app.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: alice.address } })).body as { challenge: string; nonce: string };
  const verify = (challenge: string, signature: string, wallet = alice.address) =>
    app.call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: wallet, challenge, signature } });

  const first = await connect();
  t.is((await verify(first.challenge, alice.sign(first.challenge))).status, 200);
  const replay = await verify(first.challenge, alice.sign(first.challenge));
  t.is(replay.status, 401);
  t.is(replay.body.code, 'challenge_used');

  const second = await connect();
  const unknown = second.challenge.replace(second.nonce, 'Q'.repeat(24));
  t.like((await verify(unknown, alice.sign(unknown))).body, { code: 'unknown_challenge' });
  const altered = second.challenge.replace('localhost:8080 wants', 'evil.example wants');
  t.like((await verify(altered, alice.sign(altered))).body, { code: 'challenge_mismatch' });
  const forged = await verify(second.challenge, mallory.sign(second.challenge));
  t.is(forged.status, 401);
  t.is(forged.body.code, 'invalid_signature');

  app.clock.advance(5 * 60_000);
  const expired = await verify(second.challenge, alice.sign(second.challenge));
  t.is(expired.status, 401);
  t.is(expired.body.code, 'challenge_expired');
});

test('two racing verifications over HTTP get one token', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const { challenge } = (await app.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: alice.address } })).body;
  const body = { wallet_address: alice.address, challenge, signature: alice.sign(challenge) };
  const replies = await Promise.all(Array.from({ length: 8 }, () => app.call('POST', '/v1/auth/wallet/verify', { body })));
  t.deepEqual(replies.map((r) => r.status).sort(), [200, 401, 401, 401, 401, 401, 401, 401]);
});

test('sign-in input is validated: a bad address is 422 naming the member', async (t) => {
  const app = await fresh(t);
  const r = await app.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: '0xdeadbeef' } });
  t.is(r.status, 422);
  t.regex(r.body.detail, /wallet_address/);
  const missing = await app.call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: newWallet().address } });
  t.is(missing.status, 422);
});

test('alg none, tampered, foreign and expired JWTs are 401 on JWT routes', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const token = await app.signIn(alice);
  const [header, payload, signature] = token.split('.') as [string, string, string];
  const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
  const enc = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
  const none = `${enc({ alg: 'none', typ: 'JWT' })}.${payload}.`;
  const tampered = `${header}.${enc({ ...claims, exp: (claims['exp'] as number) + 999_999 })}.${signature}`;
  const input = `${header}.${payload}`;
  const foreign = `${input}.${createHmac('sha256', 'some-other-secret-some-other-secret-42').update(input).digest('base64url')}`;
  for (const bad of [none, tampered, foreign, 'garbage']) {
    const r = await app.call('GET', '/v1/keys', { credential: bad, wallet: alice.address });
    t.is(r.status, 401, bad);
    t.is(r.body.detail, 'invalid token');
  }
  t.is((await app.call('GET', '/v1/keys', { credential: token, wallet: alice.address })).status, 200);
  app.clock.advance(3600_000);
  const expired = await app.call('GET', '/v1/keys', { credential: token, wallet: alice.address });
  t.is(expired.status, 401);
  t.regex(expired.body.detail, /expired token/);
});

test('the gate over HTTP: 49,999 is 403 stating both amounts, 50,000 passes', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app, '50000');
  const { key } = await app.apiKey(alice);
  await app.fund(alice, '49999');
  app.clock.advance(60_000); // past the cache TTL
  const refused = await app.call('GET', '/v1/proofs', { credential: key, wallet: alice.address });
  t.is(refused.status, 403);
  t.regex(refused.body.detail, /insufficient token balance/);
  t.regex(refused.body.detail, /50000/);
  t.regex(refused.body.detail, /49999/);
  t.like(refused.body, { code: 'insufficient_balance', required: 50000, balance: 49999 });
  await app.fund(alice, '50000');
  app.clock.advance(60_000);
  t.is((await app.call('GET', '/v1/proofs', { credential: key, wallet: alice.address })).status, 200);
});

test('a wallet below the minimum cannot sign in (403)', async (t) => {
  const app = await fresh(t);
  const poor = await funded(app, '49999');
  const { challenge } = (await app.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: poor.address } })).body;
  const r = await app.call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: poor.address, challenge, signature: poor.sign(challenge) } });
  t.is(r.status, 403);
  t.regex(r.body.detail, /50000/);
});

test('balance source down: a recently admitted wallet stays in, a new one gets 503 with Retry-After', async (t) => {
  const down = await fresh(t);
  const alice = newWallet();
  const bob = newWallet();
  await down.fund(alice, '50000');
  await down.fund(bob, '50000');
  const { key } = await down.apiKey(alice);
  down.balances.failWith('unreachable');
  down.clock.advance(61_000);
  t.is((await down.call('GET', '/v1/proofs', { credential: key, wallet: alice.address })).status, 200);
  const refused = await down.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: bob.address } }).then(async (r) => {
    const { challenge } = r.body;
    return down.call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: bob.address, challenge, signature: bob.sign(challenge) } });
  });
  t.is(refused.status, 503);
  t.truthy(refused.headers.get('retry-after'));
  t.is(refused.body.code, 'balance_unavailable');
});

test('POST /v1/access/check answers for any owner, mint and minimum', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const { key } = await app.apiKey(alice);
  const owner = newWallet();
  await app.fund(owner, '1234.5');
  const ask = (body: unknown) => app.call('POST', '/v1/access/check', { credential: key, wallet: alice.address, body });
  const yes = await ask({ owner: owner.address, mint: MINT, minimum: 1000 });
  t.is(yes.status, 200);
  t.true(conforms(c.AccessCheckResponse, yes.body));
  t.like(yes.body, { allowed: true, balance: 1234.5 });
  t.like((await ask({ owner: owner.address, mint: MINT, minimum: 1234.6 })).body, { allowed: false, balance: 1234.5 });
  t.like((await ask({ owner: owner.address, mint: OTHER_MINT, minimum: 1 })).body, { allowed: false, balance: 0 });
  t.regex((await ask({ owner: owner.address, mint: MINT, minimum: 1 })).body.reason, /meets the minimum/);
  for (const bad of [
    { owner: 'nope', mint: MINT, minimum: 1 },
    { owner: owner.address, mint: MINT, minimum: -1 },
    { owner: owner.address, minimum: 1 },
  ]) {
    t.is((await ask(bad)).status, 422, JSON.stringify(bad));
  }
});

test('rate limits: malformed sign-in requests count against the IP too, and are refused once it is spent', async (t) => {
  const limited = await fresh(t, { SIGN_IN_RATE_LIMIT_PER_MIN: '3' });
  const statuses = [];
  for (const body of ['{not json', '{"wallet_address": 7}', '{}']) {
    statuses.push((await limited.call('POST', '/v1/auth/wallet/connect', { body, raw: true })).status);
  }
  t.deepEqual(statuses, [400, 422, 422]);
  const alice = newWallet();
  const fourth = await limited.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: alice.address } });
  t.is(fourth.status, 429);
  const garbage = await limited.call('POST', '/v1/auth/wallet/verify', { body: '{not json', raw: true });
  t.is(garbage.status, 429, 'refused before its body is even read');
});

test('rate limits: sign-in per IP and requests per key give 429 with Retry-After and RateLimit headers', async (t) => {
  const limited = await fresh(t, { RATE_LIMIT_PER_MIN: '4', SIGN_IN_RATE_LIMIT_PER_MIN: '3' });
  const alice = newWallet();
  await limited.fund(alice, '50000');
  const { key, keyId, token } = await limited.apiKey(alice); // connect + verify: 2 of the 3 sign-in requests
  const third = await limited.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: alice.address } });
  t.is(third.status, 200);
  t.is(third.headers.get('ratelimit-limit'), '3');
  t.is(third.headers.get('ratelimit-remaining'), '0');
  const fourth = await limited.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: alice.address } });
  t.is(fourth.status, 429);
  t.truthy(Number(fourth.headers.get('retry-after')) >= 1);

  const statuses = [];
  for (let i = 0; i < 5; i++) statuses.push((await limited.call('GET', '/v1/proofs', { credential: key, wallet: alice.address })).status);
  // The key has a budget of its own (POST /v1/keys ran under the dashboard token's).
  t.deepEqual(statuses, [200, 200, 200, 200, 429]);
  // The refused request was made with the key, so it shows in the key's figures.
  const [usage] = (await limited.call('GET', '/v1/keys', { credential: token, wallet: alice.address })).body.items;
  t.like(usage, { key_id: keyId, request_count: 5, error_count: 1 });
});
