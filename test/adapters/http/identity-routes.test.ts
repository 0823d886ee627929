import { createHmac } from 'node:crypto';
import test, { type ExecutionContext } from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { isRight } from 'fp-ts/lib/Either.js';
import * as c from '../../../src/adapters/http/codecs/identity.codecs.js';
import * as k from '../../../src/adapters/http/codecs/key.codecs.js';
import { anEnvelope } from '../../support/mothers.js';
import { aWallet, MINT, OTHER_MINT } from '../../support/identity.js';
import { startIdentityApp, type IdentityApp } from '../../support/identity-app.js';
import { openApiConformance } from '../../support/openapi-conformance.js';

// An app of its own per test: tests run concurrently and some move the clock.
let next = 100;
const newWallet = () => aWallet(next++);
async function fresh(t: ExecutionContext, env: Record<string, string> = {}): Promise<IdentityApp> {
  const app = await startIdentityApp(env);
  t.teardown(() => app.close());
  return app;
}

const conforms = (codec: { decode(u: unknown): unknown }, body: unknown) => isRight(codec.decode(body) as never);

async function funded(app: IdentityApp, amountText = '50000') {
  const wallet = newWallet();
  await app.fund(wallet, amountText);
  return wallet;
}

test('the whole journey: sign in, create a key, use it, watch its usage, delete it', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const connect = await app.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: alice.address } });
  t.is(connect.status, 200);
  t.true(conforms(c.ChallengeResponse, connect.body));
  const { challenge } = connect.body;
  const verify = await app.call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: alice.address, challenge, signature: alice.sign(challenge) } });
  t.is(verify.status, 200);
  t.true(conforms(c.TokenResponse, verify.body));
  t.like(verify.body, { token_type: 'Bearer', expires_in: 3600, wallet_address: alice.address });
  const token = verify.body.access_token as string;

  const created = await app.call('POST', '/v1/keys', { credential: token, wallet: alice.address, body: { name: 'robot arm 1' } });
  t.is(created.status, 201);
  t.true(conforms(k.CreatedKeyResponse, created.body));
  const { key, key_id: keyId } = created.body;
  t.regex(key, /^pr_live_[1-9A-HJ-NP-Za-km-z]+$/);
  t.is(created.headers.get('cache-control'), 'no-store');

  const proof = await app.call('POST', '/v1/proofs', { credential: key, wallet: alice.address, body: { envelope: anEnvelope({ taskId: 'journey' }) } });
  t.is(proof.status, 200);
  t.is((await app.call('GET', `/v1/proofs/${proof.body.proof_id}`, { credential: key, wallet: alice.address })).status, 200);
  t.is((await app.call('GET', `/v1/proofs/${'0'.repeat(64)}`, { credential: key, wallet: alice.address })).status, 404);
  // Refused after the key was recognised: still a request made with it, and an error.
  t.is((await app.call('GET', '/v1/proofs', { credential: key, wallet: newWallet().address })).status, 403);

  const listed = await app.call('GET', '/v1/keys', { credential: token, wallet: alice.address });
  t.is(listed.status, 200);
  t.true(conforms(k.KeyListResponse, listed.body));
  t.is(listed.body.items.length, 1);
  const [item] = listed.body.items;
  t.like(item, { key_id: keyId, name: 'robot arm 1', prefix: key.slice(0, 16), request_count: 4, error_count: 2, error_rate: 0.5 });
  t.is(item.last_used_at, new Date(app.clock.nowMs()).toISOString());
  t.false(JSON.stringify(listed.body).includes(key), 'the key is shown only at creation');

  t.is((await app.call('DELETE', `/v1/keys/${keyId}`, { credential: token, wallet: alice.address })).status, 204);
  const after = await app.call('GET', '/v1/proofs', { credential: key, wallet: alice.address });
  t.is(after.status, 401);
  t.is(after.body.detail, 'invalid API key');
  t.deepEqual((await app.call('GET', '/v1/keys', { credential: token, wallet: alice.address })).body.items, []);
});

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

test('API-key failures: missing, wrong checksum, never issued; an API key on a JWT route', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const { key } = await app.apiKey(alice);
  const missing = await app.call('GET', '/v1/proofs', { wallet: alice.address });
  t.is(missing.status, 401);
  t.regex(missing.body.detail, /missing credential/);
  t.is(missing.headers.get('www-authenticate'), 'Bearer');
  const typo = key.slice(0, -1) + (key.endsWith('1') ? '2' : '1');
  for (const bad of [typo, 'pr_live_nope', 'sk_live_foreign']) {
    const r = await app.call('GET', '/v1/proofs', { credential: bad, wallet: alice.address });
    t.is(r.status, 401, bad);
    t.is(r.body.detail, 'invalid API key');
  }
  const wrongKind = await app.call('GET', '/v1/keys', { credential: key, wallet: alice.address });
  t.is(wrongKind.status, 401);
  t.is(wrongKind.body.code, 'wrong_credential_kind');
});

test('X-Wallet-Address: missing is 401, a different wallet is 403, for keys and tokens alike', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const bob = await funded(app);
  const { key, token } = await app.apiKey(alice);
  for (const credential of [key, token]) {
    const missing = await app.call('GET', '/v1/proofs', { credential });
    t.is(missing.status, 401);
    t.regex(missing.body.detail, /X-Wallet-Address/);
    const other = await app.call('GET', '/v1/proofs', { credential, wallet: bob.address });
    t.is(other.status, 403);
    t.is(other.body.code, 'wallet_mismatch');
  }
});

test("one wallet cannot read another's proofs: 404 by id, absent from list and search", async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const bob = await funded(app);
  const a = await app.apiKey(alice);
  const b = await app.apiKey(bob);
  const stored = await app.call('POST', '/v1/proofs', { credential: a.key, wallet: alice.address, body: { envelope: anEnvelope({ taskId: 'secret-task' }) } });
  t.is(stored.status, 200);
  const id = stored.body.proof_id as string;
  t.is((await app.call('GET', `/v1/proofs/${id}`, { credential: a.key, wallet: alice.address })).status, 200);
  t.is((await app.call('GET', `/v1/proofs/${id}`, { credential: b.key, wallet: bob.address })).status, 404);
  // Bob naming Alice in the header with his own key gets nothing either.
  t.is((await app.call('GET', `/v1/proofs/${id}`, { credential: b.key, wallet: alice.address })).status, 403);
  t.deepEqual((await app.call('GET', '/v1/proofs?task_id=secret-task', { credential: b.key, wallet: bob.address })).body.items, []);
  t.deepEqual((await app.call('POST', '/v1/proofs/search', { credential: b.token, wallet: bob.address, body: { text: 'secret' } })).body.items, []);
  t.is((await app.call('POST', '/v1/proofs/search', { credential: a.key, wallet: alice.address, body: { text: 'secret' } })).body.items.length, 1);
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

test('a key name is 1 to 100 characters after trimming, counted as people count them (an emoji is one), with no control characters', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const token = await app.signIn(alice);
  const create = (name: string) => app.call('POST', '/v1/keys', { credential: token, wallet: alice.address, body: { name } });
  t.is((await create('\u{1F916}'.repeat(100))).status, 201);
  const long = await create('\u{1F916}'.repeat(101));
  t.is(long.status, 422);
  t.regex(long.body.detail, /at most 100 characters/);
  // The rule of device and group names: trimmed, not blank, no control characters.
  const trimmed = await create('  robot arm 7  ');
  t.is(trimmed.body.name, 'robot arm 7');
  for (const [name, words] of [
    ['', /1 to 200|empty/],
    ['   ', /empty or only whitespace/],
    ['a\nb', /control characters/],
    ['a\u0000b', /U\+0000|control/],
  ] as const) {
    const res = await create(name);
    t.is(res.status, 422, JSON.stringify(name));
    t.regex(res.body.detail, words);
  }
});

test("a key's usage counts requests refused for their body: malformed, not JSON, too large", async (t) => {
  const app = await fresh(t, { BODY_LIMIT_BYTES: '2048' });
  const alice = await funded(app);
  const { key, keyId, token } = await app.apiKey(alice);
  const send = (body: string, type = 'application/json') =>
    app.call('POST', '/v1/verify', { credential: key, wallet: alice.address, body, raw: true, headers: { 'content-type': type } });
  t.is((await send('{"envelope": ')).status, 400);
  t.is((await send('envelope=1', 'text/plain')).status, 415);
  t.is((await send(JSON.stringify({ envelope: 'x'.repeat(5000) }))).status, 413);
  const listed = await app.call('GET', '/v1/keys', { credential: token, wallet: alice.address });
  const mine = (listed.body.items as Array<{ key_id: string; request_count: number; error_count: number }>).find((k) => k.key_id === keyId)!;
  t.like(mine, { request_count: 3, error_count: 3 });
});

test("DELETE of another wallet's key is 404 and leaves it working", async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const bob = await funded(app);
  const a = await app.apiKey(alice);
  const bobToken = await app.signIn(bob);
  t.is((await app.call('DELETE', `/v1/keys/${a.keyId}`, { credential: bobToken, wallet: bob.address })).status, 404);
  t.is((await app.call('GET', '/v1/proofs', { credential: a.key, wallet: alice.address })).status, 200);
});

test('identity metrics are exported', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const { key } = await app.apiKey(alice);
  await app.call('GET', '/v1/proofs', { credential: key, wallet: alice.address });
  await app.call('GET', '/v1/proofs', { credential: 'pr_live_bad', wallet: alice.address });
  const text = (await app.call('GET', '/metrics')).body as string;
  t.regex(text, /auth_failures_total\{reason="invalid_api_key"\} [1-9]/);
  t.regex(text, /token_gate_decisions_total\{decision="allowed"\} [1-9]/);
  t.regex(text, /balance_cache_lookups_total\{result="(hit|miss)"\} [1-9]/);
});

test('the OpenAPI document covers the identity routes and is valid', async (t) => {
  const app = await fresh(t);
  const doc = (await app.call('GET', '/openapi.json')).body;
  const result = await new Validator().validate(doc);
  t.true(result.valid, JSON.stringify(result.errors)?.slice(0, 2000));
  for (const [path, method] of [
    ['/v1/auth/wallet/connect', 'post'],
    ['/v1/auth/wallet/verify', 'post'],
    ['/v1/keys', 'get'],
    ['/v1/keys', 'post'],
    ['/v1/keys/{key_id}', 'delete'],
    ['/v1/access/check', 'post'],
  ] as const) {
    t.truthy(doc.paths[path]?.[method], `${method} ${path}`);
  }
  t.deepEqual(doc.paths['/v1/auth/wallet/connect'].post.security, []);
  t.deepEqual(doc.paths['/v1/keys'].get.security, [{ walletJwt: [] }]);
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

test('real identity responses match the schemas the OpenAPI document gives them', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const check = openApiConformance((await app.call('GET', '/openapi.json')).body);
  const connect = await app.call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: alice.address } });
  t.is(check('/v1/auth/wallet/connect', 'POST', connect.status, connect.body), null);
  const { challenge } = connect.body;
  const verify = await app.call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: alice.address, challenge, signature: alice.sign(challenge) } });
  t.is(check('/v1/auth/wallet/verify', 'POST', verify.status, verify.body), null);
  const replay = await app.call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: alice.address, challenge, signature: alice.sign(challenge) } });
  t.is(check('/v1/auth/wallet/verify', 'POST', replay.status, replay.body), null);
  const token = verify.body.access_token as string;
  const created = await app.call('POST', '/v1/keys', { credential: token, wallet: alice.address, body: { name: 'conformance' } });
  t.is(check('/v1/keys', 'POST', created.status, created.body), null);
  await app.call('POST', '/v1/verify', { credential: created.body.key, wallet: alice.address, body: { envelope: {} } });
  const listed = await app.call('GET', '/v1/keys', { credential: token, wallet: alice.address });
  t.is(check('/v1/keys', 'GET', listed.status, listed.body), null);
  const access = await app.call('POST', '/v1/access/check', {
    body: { owner: alice.address, mint: 'So11111111111111111111111111111111111111112', minimum: 10 },
  });
  t.is(check('/v1/access/check', 'POST', access.status, access.body), null);
  const unknownKey = await app.call('DELETE', '/v1/keys/none-such', { credential: token, wallet: alice.address });
  t.is(check('/v1/keys/{key_id}', 'DELETE', unknownKey.status, unknownKey.body), null);
});

test('a wallet holds at most 100 API keys: the 101st is 409 until one is deleted', async (t) => {
  const app = await fresh(t);
  const alice = await funded(app);
  const token = await app.signIn(alice);
  const create = (name: string) => app.call('POST', '/v1/keys', { credential: token, wallet: alice.address, body: { name } });
  const made = [];
  for (let i = 0; i < 100; i++) made.push(await create(`key ${i}`));
  t.true(made.every((r) => r.status === 201));
  const over = await create('key 100');
  t.is(over.status, 409);
  t.is(over.body.code, 'too_many_keys');
  t.regex(over.body.detail, /at most 100 API keys/);
  const list = (query = '') => app.call('GET', `/v1/keys${query}`, { credential: token, wallet: alice.address });
  t.is((await list('?limit=200')).body.items.length, 100);
  t.is((await app.call('DELETE', `/v1/keys/${made[0]!.body.key_id}`, { credential: token, wallet: alice.address })).status, 204);
  t.is((await create('key 100')).status, 201);

  // Pages of 50 by default, in the order of the whole list, each continuing where the last ended.
  const all = (await list('?limit=200')).body.items.map((k: { key_id: string }) => k.key_id) as string[];
  const first = await list();
  t.true(conforms(k.KeyListResponse, first.body));
  t.deepEqual(
    first.body.items.map((k: { key_id: string }) => k.key_id),
    all.slice(0, 50),
  );
  // A key deleted between pages does not make the next page skip one.
  t.is((await app.call('DELETE', `/v1/keys/${all[49]}`, { credential: token, wallet: alice.address })).status, 204);
  const second = await list(`?cursor=${first.body.next_cursor}`);
  t.deepEqual(
    second.body.items.map((k: { key_id: string }) => k.key_id),
    all.slice(50),
  );
  t.is(second.body.next_cursor, null);
  for (const [query, status] of [
    ['?limit=0', 422],
    ['?limit=201', 422],
    ['?cursor=nope', 422],
    ['?bogus=1', 400],
    ['?limit=1&limit=2', 400],
  ] as const) {
    t.is((await list(query)).status, status, query);
  }
});
