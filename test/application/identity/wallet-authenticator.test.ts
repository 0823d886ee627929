import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import type { AuthRequest, CredentialKind } from '../../../src/application/ports/authenticator.js';
import { WalletAuthenticator } from '../../../src/application/identity/wallet-authenticator.js';
import { formatApiKey } from '../../../src/domain/identity/api-key.js';
import { FULL_GRANT } from '../../../src/domain/identity/key-grant.js';
import { JsonwebtokenTokenIssuer } from '../../../src/adapters/jwt/jsonwebtoken-token-issuer.js';
import { aWallet, memoryIdentity, ORIGIN, type MemoryIdentity } from '../../support/identity.js';

const alice = aWallet(1);
const bob = aWallet(2);
const API: readonly CredentialKind[] = ['api_key', 'jwt'];
const JWT_ONLY: readonly CredentialKind[] = ['jwt'];

async function withKey(id: MemoryIdentity, wallet = alice.address) {
  const created = await id.createKey.execute({ wallet, name: 'ci' });
  if (E.isLeft(created)) throw new Error('could not create a key');
  return created.right;
}

const req = (authorization: string | undefined, walletHeader: string | undefined, accepts = API): AuthRequest => ({ authorization, walletHeader, accepts });
const failureOf = (r: E.Either<{ _tag: string }, unknown>) => (E.isLeft(r) ? r.left._tag : 'Right');

test('an API key authenticates as its wallet, with its key id', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { key, record } = await withKey(id);
  t.deepEqual(
    await id.authenticator.authenticate(req(`Bearer ${key}`, alice.address)),
    E.right({ wallet: alice.address, kind: 'api_key', keyId: record.keyId, grant: FULL_GRANT }),
  );
});

test('a dashboard token authenticates on both kinds of route', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { token, jti, expiresInS } = id.tokens.issue(alice.address);
  const session = { jti, expiresAtMs: Math.floor(id.clock.nowMs() / 1000) * 1000 + expiresInS * 1000 };
  for (const accepts of [API, JWT_ONLY]) {
    t.deepEqual(
      await id.authenticator.authenticate(req(`Bearer ${token}`, alice.address, accepts)),
      E.right({ wallet: alice.address, kind: 'jwt', keyId: null, token: session, grant: FULL_GRANT }),
    );
  }
});

const missing: Array<[string, string | undefined]> = [
  ['no Authorization header', undefined],
  ['an empty header', ''],
  ['another scheme', 'Basic dXNlcjpwYXNz'],
  ['Bearer with nothing after it', 'Bearer '],
];
for (const [name, header] of missing) {
  test(`${name} is a missing credential`, async (t) => {
    const id = memoryIdentity();
    t.is(failureOf(await id.authenticator.authenticate(req(header, alice.address))), 'MissingCredential');
  });
}

test('a key with a wrong checksum is refused without touching the store', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { key } = await withKey(id);
  let lookups = 0;
  const spy = { findByHash: async (h: string) => (lookups++, id.keys.findByHash(h)) };
  const authenticator = new WalletAuthenticator(spy, id.crypto, id.tokens, id.gate, id.metrics, id.clock);
  const typo = key.slice(0, 20) + (key[20] === 'a' ? 'b' : 'a') + key.slice(21);
  t.is(failureOf(await authenticator.authenticate(req(`Bearer ${typo}`, alice.address))), 'InvalidApiKey');
  t.is(failureOf(await authenticator.authenticate(req('Bearer pr_live_short', alice.address))), 'InvalidApiKey');
  t.is(lookups, 0);
  t.true(E.isRight(await authenticator.authenticate(req(`Bearer ${key}`, alice.address))));
  t.is(lookups, 1);
});

test('a well-formed key that was never issued, or was deleted, is refused at once', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { key, record } = await withKey(id);
  const { key: stranger } = await withKey(memoryIdentity());
  t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${stranger}`, alice.address))), 'InvalidApiKey');
  t.true(E.isRight(await id.authenticator.authenticate(req(`Bearer ${key}`, alice.address))));
  await id.deleteKey.execute({ wallet: alice.address, keyId: record.keyId });
  t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${key}`, alice.address))), 'InvalidApiKey');
});

test('a key is hashed once while it is in use; the store is still asked on every request', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { key } = await withKey(id);
  const { key: other } = await withKey(id);
  let hashes = 0;
  let lookups = 0;
  const hasher = { sha256: (bytes: Uint8Array) => (hashes++, id.crypto.sha256(bytes)) };
  const store = { findByHash: async (h: string) => (lookups++, id.keys.findByHash(h)) };
  const authenticator = new WalletAuthenticator(store, hasher, id.tokens, id.gate, id.metrics, id.clock);
  for (let i = 0; i < 3; i++) {
    t.true(E.isRight(await authenticator.authenticate(req(`Bearer ${key}`, alice.address))));
    t.true(E.isRight(await authenticator.authenticate(req(`Bearer ${other}`, alice.address))));
  }
  t.is(hashes, 2);
  t.is(lookups, 6);
  // 5,000 other well-formed keys, never issued, push the first ones out: each is refused, and
  // the first key, hashed again, still authenticates.
  for (let i = 0; i < 5_000; i++) {
    const stranger = formatApiKey(Uint8Array.from({ length: 32 }, (_, b) => (b < 4 ? (i >> (8 * b)) & 0xff : 7)));
    t.is(failureOf(await authenticator.authenticate(req(`Bearer ${stranger}`, alice.address))), 'InvalidApiKey');
  }
  t.is(hashes, 5_002);
  t.true(E.isRight(await authenticator.authenticate(req(`Bearer ${key}`, alice.address))));
  t.is(hashes, 5_003);
});

test('anything else on an API-key route reads as an invalid API key; on a JWT route as an invalid token', async (t) => {
  const id = memoryIdentity();
  t.is(failureOf(await id.authenticator.authenticate(req('Bearer sk_live_123', alice.address))), 'InvalidApiKey');
  t.is(failureOf(await id.authenticator.authenticate(req('Bearer sk_live_123', alice.address, JWT_ONLY))), 'InvalidToken');
});

test('an API key on a JWT-only route is the wrong kind of credential', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { key } = await withKey(id);
  t.deepEqual(
    await id.authenticator.authenticate(req(`Bearer ${key}`, alice.address, JWT_ONLY)),
    E.left({ _tag: 'CredentialKindNotAllowed', allowed: JWT_ONLY }),
  );
});

test('expired and foreign tokens are refused', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { token } = id.tokens.issue(alice.address);
  const foreign = new JsonwebtokenTokenIssuer({ secret: 'x'.repeat(40), ttlS: 3600, issuer: ORIGIN, audience: 'proof-registry' }, id.clock).issue(
    alice.address,
  ).token;
  t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${foreign}`, alice.address))), 'InvalidToken');
  id.clock.advance(3600_000);
  t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${token}`, alice.address))), 'ExpiredToken');
});

test('the wallet header is required and must be the credential wallet', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  await id.fund(bob, '50000');
  const { key } = await withKey(id);
  const { token } = id.tokens.issue(alice.address);
  for (const credential of [key, token]) {
    t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${credential}`, undefined))), 'MissingWalletHeader');
    t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${credential}`, ''))), 'MissingWalletHeader');
    // Bob's address in the header does not make Alice's credential act for Bob.
    t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${credential}`, bob.address))), 'WalletMismatch');
  }
});

test('the token gate runs on every request: 49,999 refused, 50,000 admitted', async (t) => {
  const id = memoryIdentity({ ttlS: 0 });
  const { key } = await withKey(id);
  await id.fund(alice, '49999');
  t.deepEqual(
    await id.authenticator.authenticate(req(`Bearer ${key}`, alice.address)),
    E.left({ _tag: 'InsufficientBalance', required: 50_000, balance: 49_999 }),
  );
  await id.fund(alice, '50000');
  t.true(E.isRight(await id.authenticator.authenticate(req(`Bearer ${key}`, alice.address))));
  id.balances.failWith('unreachable');
  // A recent pass is honoured while the source is down...
  t.true(E.isRight(await id.authenticator.authenticate(req(`Bearer ${key}`, alice.address))));
  // ...but a wallet never seen passing is not let in.
  const { token } = id.tokens.issue(bob.address);
  t.is(failureOf(await id.authenticator.authenticate(req(`Bearer ${token}`, bob.address))), 'BalanceUnavailable');
});

test('every refusal is counted by reason', async (t) => {
  const id = memoryIdentity();
  await id.authenticator.authenticate(req(undefined, alice.address));
  await id.authenticator.authenticate(req('Bearer pr_live_x', alice.address));
  t.deepEqual(id.metrics.failures, ['missing_credential', 'invalid_api_key']);
});

test('a valid key refused by a later check is reported, so its error count includes the refusal', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { key, record } = await withKey(id);
  const refused: Array<[string, string]> = [];
  const authenticator = new WalletAuthenticator(id.keys, id.crypto, id.tokens, id.gate, id.metrics, id.clock, {
    onKeyRefused: (keyId, failure) => refused.push([keyId, failure._tag]),
  });
  await authenticator.authenticate(req(`Bearer ${key}`, bob.address));
  await authenticator.authenticate(req(`Bearer ${key}`, undefined));
  await authenticator.authenticate(req(`Bearer ${key}`, alice.address));
  await authenticator.authenticate(req('Bearer pr_live_unknown', alice.address));
  t.deepEqual(refused, [
    [record.keyId, 'WalletMismatch'],
    [record.keyId, 'MissingWalletHeader'],
  ]);
});

test('a key holds only its scopes, stops when disabled or expired, and every refusal of it counts as its use', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const made = await id.createKey.execute({
    wallet: alice.address,
    name: 'arm',
    scopes: ['proofs:write'],
    robotIds: ['arm-1'],
    expiresAtMs: id.clock.nowMs() + 60_000,
  });
  if (E.isLeft(made)) throw new Error('could not create a key');
  const { key, record } = made.right;
  const refused: Array<[string, string, string | undefined]> = [];
  const authenticator = new WalletAuthenticator(id.keys, id.crypto, id.tokens, id.gate, id.metrics, id.clock, {
    onKeyRefused: (keyId, f, endpoint) => refused.push([keyId, f._tag, endpoint]),
  });
  const ask = (scope?: 'proofs:write' | 'proofs:read') =>
    authenticator.authenticate({ ...req(`Bearer ${key}`, alice.address), ...(scope ? { scope } : {}), endpoint: 'GET /v1/proofs' });

  t.deepEqual(
    await ask('proofs:write'),
    E.right({ wallet: alice.address, kind: 'api_key', keyId: record.keyId, grant: { scopes: ['proofs:write'], robotIds: ['arm-1'] } }),
  );
  t.true(E.isRight(await ask()), 'a route any key may call');
  t.deepEqual(await ask('proofs:read'), E.left({ _tag: 'InsufficientScope', scope: 'proofs:read' }));
  await id.keys.update(alice.address, record.keyId, { enabled: false }, id.clock.nowMs());
  t.deepEqual(await ask('proofs:write'), E.left({ _tag: 'DisabledApiKey', disabledAtMs: id.clock.nowMs() }));
  await id.keys.update(alice.address, record.keyId, { enabled: true }, id.clock.nowMs());
  t.true(E.isRight(await ask('proofs:write')));
  id.clock.advance(60_000);
  t.deepEqual(await ask('proofs:write'), E.left({ _tag: 'ExpiredApiKey', expiredAtMs: record.expiresAtMs! }));
  t.deepEqual(refused, [
    [record.keyId, 'InsufficientScope', 'GET /v1/proofs'],
    [record.keyId, 'DisabledApiKey', 'GET /v1/proofs'],
    [record.keyId, 'ExpiredApiKey', 'GET /v1/proofs'],
  ]);
  t.deepEqual(id.metrics.failures.slice(-3), ['insufficient_scope', 'disabled_api_key', 'expired_api_key']);
});
