import { createHmac, generateKeyPairSync } from 'node:crypto';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import jwt from 'jsonwebtoken';
import { JsonwebtokenTokenIssuer } from '../../../src/adapters/jwt/jsonwebtoken-token-issuer.js';
import { aWallet, JWT_SECRET, ManualClock, ORIGIN } from '../../support/identity.js';

const wallet = aWallet(1).address;
const settings = { secret: JWT_SECRET, ttlS: 3600, issuer: ORIGIN, audience: 'proof-registry' };
const make = (clock = new ManualClock()) => ({ clock, issuer: new JsonwebtokenTokenIssuer(settings, clock) });

const b64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const parts = (token: string) => token.split('.') as [string, string, string];
const decodePart = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;
const hs256 = (header: unknown, payload: unknown, secret = JWT_SECRET) => {
  const signingInput = `${b64url(header)}.${b64url(payload)}`;
  return `${signingInput}.${createHmac('sha256', secret).update(signingInput).digest('base64url')}`;
};

test('an issued token carries sub, iss, aud, iat, exp and jti, signed HS256', (t) => {
  const { clock, issuer } = make();
  const issued = issuer.issue(wallet);
  const [header, payload] = parts(issued.token);
  t.deepEqual(decodePart(header), { alg: 'HS256', typ: 'JWT' });
  const iat = Math.floor(clock.nowMs() / 1000);
  t.deepEqual(decodePart(payload), { iat, exp: iat + 3600, aud: 'proof-registry', iss: ORIGIN, sub: wallet, jti: issued.jti });
  t.is(issued.expiresInS, 3600);
  t.deepEqual(issuer.verify(issued.token), E.right({ wallet, jti: issued.jti, expiresAtMs: (iat + 3600) * 1000 }));
});

test('each token has its own jti', (t) => {
  const { issuer } = make();
  t.not(issuer.issue(wallet).jti, issuer.issue(wallet).jti);
});

test('a token is valid until exp and expired from exp on, with no tolerance', (t) => {
  const { clock, issuer } = make();
  const { token } = issuer.issue(wallet);
  clock.advance(3599_000);
  t.true(E.isRight(issuer.verify(token)));
  clock.advance(1_000);
  t.deepEqual(issuer.verify(token), E.left('ExpiredToken'));
});

test('alg none is refused, with or without a signature', (t) => {
  const { clock, issuer } = make();
  const iat = Math.floor(clock.nowMs() / 1000);
  const payload = { sub: wallet, iss: ORIGIN, aud: 'proof-registry', iat, exp: iat + 60, jti: 'x' };
  t.deepEqual(issuer.verify(`${b64url({ alg: 'none', typ: 'JWT' })}.${b64url(payload)}.`), E.left('InvalidToken'));
  t.deepEqual(issuer.verify(`${b64url({ alg: 'none' })}.${b64url(payload)}.${parts(issuer.issue(wallet).token)[2]}`), E.left('InvalidToken'));
});

test('other algorithms are refused even when correctly signed with the secret', (t) => {
  const { clock, issuer } = make();
  const iat = Math.floor(clock.nowMs() / 1000);
  const payload = { sub: wallet, iss: ORIGIN, aud: 'proof-registry', iat, exp: iat + 60, jti: 'x' };
  t.deepEqual(issuer.verify(jwt.sign(payload, JWT_SECRET, { algorithm: 'HS512' })), E.left('InvalidToken'));
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  t.deepEqual(issuer.verify(jwt.sign(payload, privateKey, { algorithm: 'RS256' })), E.left('InvalidToken'));
});

test('a tampered payload, header or signature is refused', (t) => {
  const { issuer } = make();
  const [header, payload, signature] = parts(issuer.issue(wallet).token);
  const claims = decodePart(payload);
  const other = aWallet(2).address;
  t.deepEqual(issuer.verify(`${header}.${b64url({ ...claims, sub: other })}.${signature}`), E.left('InvalidToken'));
  t.deepEqual(issuer.verify(`${header}.${b64url({ ...claims, exp: (claims['exp'] as number) + 86_400 })}.${signature}`), E.left('InvalidToken'));
  t.deepEqual(issuer.verify(`${b64url({ alg: 'HS256', typ: 'JWT', kid: 'x' })}.${payload}.${signature}`), E.left('InvalidToken'));
  const flipped = (signature[0] === 'A' ? 'B' : 'A') + signature.slice(1);
  t.deepEqual(issuer.verify(`${header}.${payload}.${flipped}`), E.left('InvalidToken'));
  t.deepEqual(issuer.verify('not.a.jwt'), E.left('InvalidToken'));
});

test('a token signed with another secret, or for another issuer or audience, is refused', (t) => {
  const { clock, issuer } = make();
  const iat = Math.floor(clock.nowMs() / 1000);
  const good = { sub: wallet, iss: ORIGIN, aud: 'proof-registry', iat, exp: iat + 60, jti: 'x' };
  const header = { alg: 'HS256', typ: 'JWT' };
  t.true(E.isRight(issuer.verify(hs256(header, good))));
  t.deepEqual(issuer.verify(hs256(header, good, 'another-secret-another-secret-another')), E.left('InvalidToken'));
  t.deepEqual(issuer.verify(hs256(header, { ...good, iss: 'https://evil.example' })), E.left('InvalidToken'));
  t.deepEqual(issuer.verify(hs256(header, { ...good, aud: 'someone-else' })), E.left('InvalidToken'));
});

test('a token without the claims this service always sets is refused', (t) => {
  const { clock, issuer } = make();
  const iat = Math.floor(clock.nowMs() / 1000);
  const good = { sub: wallet, iss: ORIGIN, aud: 'proof-registry', iat, exp: iat + 60, jti: 'x' };
  const header = { alg: 'HS256', typ: 'JWT' };
  for (const missing of ['sub', 'jti', 'exp', 'iat'] as const) {
    const { [missing]: _drop, ...rest } = good;
    t.deepEqual(issuer.verify(hs256(header, rest)), E.left('InvalidToken'), missing);
  }
  t.deepEqual(issuer.verify(hs256(header, { ...good, sub: 'not-a-wallet' })), E.left('InvalidToken'));
});

test('a secret shorter than 32 bytes is refused at construction', (t) => {
  t.throws(() => new JsonwebtokenTokenIssuer({ ...settings, secret: 'short' }, new ManualClock()));
});
