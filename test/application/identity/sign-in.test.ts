import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { SIGN_IN_TTL_MS } from '../../../src/domain/identity/sign-in-message.js';
import { aWallet, memoryIdentity, ORIGIN, type MemoryIdentity, type TestWallet } from '../../support/identity.js';

const alice = aWallet(1);
const mallory = aWallet(2);

async function connect(id: MemoryIdentity, wallet: TestWallet) {
  const started = await id.startSignIn.execute({ wallet: wallet.address });
  if (E.isLeft(started)) throw new Error('connect failed');
  return started.right;
}

const verify = (id: MemoryIdentity, wallet: string, challenge: string, signatureB64: string) => id.completeSignIn.execute({ wallet, challenge, signatureB64 });
const failureOf = (r: E.Either<{ _tag: string }, unknown>) => (E.isLeft(r) ? r.left._tag : 'Right');

test('connect issues a SIWS challenge bound to the wallet, the origin and a 5-minute window', async (t) => {
  const id = memoryIdentity();
  const { challenge, nonce, expiresAtMs } = await connect(id, alice);
  t.regex(nonce, /^[A-Za-z0-9]{24}$/);
  t.is(expiresAtMs, id.clock.nowMs() + SIGN_IN_TTL_MS);
  t.true(challenge.startsWith(`registry.example.com wants you to sign in with your Solana account:\n${alice.address}\n\n`));
  t.true(challenge.includes(`\nURI: ${ORIGIN}\nVersion: 1\nChain ID: mainnet\nNonce: ${nonce}\n`));
  t.true(challenge.endsWith(`Expiration Time: ${new Date(expiresAtMs).toISOString()}`));
  t.deepEqual(await id.nonces.find(nonce), { nonce, wallet: alice.address, message: challenge, issuedAtMs: id.clock.nowMs(), expiresAtMs, consumedAtMs: null });
});

test('nonces are never repeated', async (t) => {
  const id = memoryIdentity();
  const nonces = new Set<string>();
  for (let i = 0; i < 200; i++) nonces.add((await connect(id, alice)).nonce);
  t.is(nonces.size, 200);
});

test('connect refuses an address that is not a 32-byte base58 key', async (t) => {
  const id = memoryIdentity();
  t.is(failureOf(await id.startSignIn.execute({ wallet: 'not-a-wallet' })), 'InvalidWalletAddress');
});

test('a correctly signed challenge gives a token for the wallet, once', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { challenge } = await connect(id, alice);
  const result = await verify(id, alice.address, challenge, alice.sign(challenge));
  if (E.isLeft(result)) return t.fail(result.left._tag);
  t.is(result.right.wallet, alice.address);
  t.is(result.right.expiresInS, 3600);
  t.like(id.tokens.verify(result.right.accessToken), { _tag: 'Right', right: { wallet: alice.address } });
  // Replaying the very same request is refused.
  t.is(failureOf(await verify(id, alice.address, challenge, alice.sign(challenge))), 'ChallengeAlreadyUsed');
  t.deepEqual(id.metrics.failures, ['sign_in_challenge_already_used']);
});

test('two racing verifications of one challenge get one token between them', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { challenge } = await connect(id, alice);
  const results = await Promise.all(Array.from({ length: 10 }, () => verify(id, alice.address, challenge, alice.sign(challenge))));
  t.is(results.filter(E.isRight).length, 1);
  t.true(results.filter(E.isLeft).every((r) => failureOf(r) === 'ChallengeAlreadyUsed'));
});

test('an unknown nonce is refused', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { challenge, nonce } = await connect(id, alice);
  const forged = challenge.replace(nonce, 'ZZZZZZZZZZZZZZZZZZZZZZZZ');
  t.is(failureOf(await verify(id, alice.address, forged, alice.sign(forged))), 'UnknownChallenge');
});

test('an expired challenge is refused, even correctly signed', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { challenge } = await connect(id, alice);
  id.clock.advance(SIGN_IN_TTL_MS);
  t.is(failureOf(await verify(id, alice.address, challenge, alice.sign(challenge))), 'ChallengeExpired');
});

const alterations: Array<[string, (c: string) => string]> = [
  ['domain', (c) => c.replace('registry.example.com wants', 'evil.example wants')],
  ['URI', (c) => c.replace(`URI: ${ORIGIN}`, 'URI: https://evil.example')],
  ['statement', (c) => c.replace('Sign in to Proof Registry.', 'Sign in to Evil.')],
  ['chain id', (c) => c.replace('Chain ID: mainnet', 'Chain ID: devnet')],
  ['expiration time', (c) => c.replace(/Expiration Time: .*$/, 'Expiration Time: 2099-01-01T00:00:00.000Z')],
  ['issued-at time', (c) => c.replace(/Issued At: [^\n]*/, 'Issued At: 2026-11-20T09:59:00.000Z')],
];
for (const [field, alter] of alterations) {
  test(`a challenge with an altered ${field} is refused, even signed by the wallet`, async (t) => {
    const id = memoryIdentity();
    await id.fund(alice, '50000');
    const { challenge } = await connect(id, alice);
    const altered = alter(challenge);
    t.not(altered, challenge);
    t.is(failureOf(await verify(id, alice.address, altered, alice.sign(altered))), 'ChallengeMismatch');
    // The untouched challenge still works: a failed attempt does not burn it.
    t.true(E.isRight(await verify(id, alice.address, challenge, alice.sign(challenge))));
  });
}

test("another wallet cannot use a challenge issued to someone else, or claim another's address", async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  await id.fund(mallory, '50000');
  const { challenge } = await connect(id, alice);
  // Mallory signs Alice's challenge with her own key, claiming to be Mallory...
  t.is(failureOf(await verify(id, mallory.address, challenge, mallory.sign(challenge))), 'ChallengeMismatch');
  // ...or claiming to be Alice.
  t.is(failureOf(await verify(id, alice.address, challenge, mallory.sign(challenge))), 'InvalidSignature');
  // Rewriting the address line to hers does not help either.
  const rewritten = challenge.replace(alice.address, mallory.address);
  t.is(failureOf(await verify(id, mallory.address, rewritten, mallory.sign(rewritten))), 'ChallengeMismatch');
});

test('signatures that are malformed, truncated or over other bytes are refused', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '50000');
  const { challenge } = await connect(id, alice);
  const good = alice.sign(challenge);
  const bad = [
    '',
    'not base64!',
    Buffer.from(good, 'base64').subarray(0, 63).toString('base64'),
    Buffer.from(good, 'base64').toString('base64url'),
    alice.sign(challenge + ' '),
    Buffer.alloc(64).toString('base64'),
  ];
  for (const signature of bad) t.is(failureOf(await verify(id, alice.address, challenge, signature)), 'InvalidSignature', signature);
  t.true(E.isRight(await verify(id, alice.address, challenge, good)));
});

test('a wallet below the minimum is refused with both amounts; the challenge survives for a retry', async (t) => {
  const id = memoryIdentity();
  await id.fund(alice, '49999');
  const { challenge } = await connect(id, alice);
  t.deepEqual(await verify(id, alice.address, challenge, alice.sign(challenge)), E.left({ _tag: 'InsufficientBalance', required: 50_000, balance: 49_999 }));
  await id.fund(alice, '50000');
  id.clock.advance(60_000); // past the balance cache TTL
  t.true(E.isRight(await verify(id, alice.address, challenge, alice.sign(challenge))));
});

test('a balance source that is down refuses sign-in with BalanceUnavailable, never a token', async (t) => {
  const id = memoryIdentity();
  id.balances.failWith('timeout');
  const { challenge } = await connect(id, alice);
  t.is(failureOf(await verify(id, alice.address, challenge, alice.sign(challenge))), 'BalanceUnavailable');
});

test('text that is not one of our messages is refused before any lookup', async (t) => {
  const id = memoryIdentity();
  t.is(failureOf(await verify(id, alice.address, 'hello', alice.sign('hello'))), 'MalformedChallenge');
});
