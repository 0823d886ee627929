import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { fresh, funded } from './identity-routes-support.js';

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
