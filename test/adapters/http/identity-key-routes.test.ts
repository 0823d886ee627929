import test from 'ava';
import * as c from '../../../src/adapters/http/codecs/identity.codecs.js';
import * as k from '../../../src/adapters/http/codecs/key.codecs.js';
import { anEnvelope } from '../../support/mothers.js';
import { conforms } from '../../support/conforms.js';
import { fresh, funded, newWallet } from './identity-routes-support.js';

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
