import test from 'ava';
import { aWallet } from '../../support/identity.js';
import { startIdentityApp } from '../../support/identity-app.js';
import { postgresSchemaUrl } from '../../support/databases.js';

test.serial('signing out on one instance ends that token on another instance of the same database, and nothing else', async (t) => {
  const { url } = await postgresSchemaUrl(t, 'sign_out');
  const one = await startIdentityApp({ DATABASE_URL: url });
  t.teardown(() => one.close());
  const two = await startIdentityApp({ DATABASE_URL: url });
  t.teardown(() => two.close());
  const alice = aWallet(901);
  await one.fund(alice, '50000');
  await two.fund(alice, '50000');
  const { key, token } = await one.apiKey(alice);
  const other = await one.signIn(alice);
  const keys = (app: typeof one, credential: string) => app.call('GET', '/v1/keys', { credential, wallet: alice.address });
  t.is((await keys(two, token)).status, 200);

  const out = await one.call('POST', '/v1/auth/logout', { credential: token, wallet: alice.address });
  t.is(out.status, 204);
  for (const app of [one, two]) {
    const refused = await keys(app, token);
    t.is(refused.status, 401);
    t.is(refused.body.code, 'revoked_token');
  }
  // Signing out again with the same token is refused like any use of it.
  t.is((await two.call('POST', '/v1/auth/logout', { credential: token, wallet: alice.address })).status, 401);
  // The wallet's other session and its API key go on.
  t.is((await keys(two, other)).status, 200);
  t.is((await two.call('GET', '/v1/proofs', { credential: key, wallet: alice.address })).status, 200);
  // An API key is not a session: logout takes a dashboard token.
  t.is((await two.call('POST', '/v1/auth/logout', { credential: key, wallet: alice.address })).status, 401);
});
