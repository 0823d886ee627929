import test from 'ava';
import { postgresSchemaUrl } from '../../support/databases.js';
import { aWallet } from '../../support/identity.js';
import { startIdentityApp } from '../../support/identity-app.js';

// Each instance keeps a key it has seen for API_KEY_CACHE_TTL_S (5 s by default): a change
// made through one instance holds there at once and on the other once that time is up.
test.serial(
  'a key disabled, enabled or deleted on one instance holds there at once and on another instance of the same database within the key cache time',
  async (t) => {
    const { url } = await postgresSchemaUrl(t, 'key_changes');
    const one = await startIdentityApp({ DATABASE_URL: url });
    t.teardown(() => one.close());
    const two = await startIdentityApp({ DATABASE_URL: url });
    t.teardown(() => two.close());
    const alice = aWallet(911);
    await one.fund(alice, '50000');
    await two.fund(alice, '50000');
    const { key, keyId, token } = await one.apiKey(alice);
    const use = async (app: typeof one) => {
      const r = await app.call('GET', '/v1/proofs', { credential: key, wallet: alice.address });
      return r.status === 200 ? 'ok' : r.body.code;
    };
    const patch = (enabled: boolean) => one.call('PATCH', `/v1/keys/${keyId}`, { credential: token, wallet: alice.address, body: { enabled } });
    const cacheTime = 5_001;

    t.deepEqual([await use(one), await use(two)], ['ok', 'ok'], 'both instances now hold the key in their caches');
    t.is((await patch(false)).status, 200);
    t.is(await use(one), 'disabled_api_key', 'at once where it was changed');
    t.is(await use(two), 'ok', 'the other instance serves it from its cache until the time is up');
    two.clock.advance(cacheTime);
    t.is(await use(two), 'disabled_api_key');

    t.is((await patch(true)).status, 200);
    t.is(await use(one), 'ok');
    t.is(await use(two), 'disabled_api_key', 'the other instance keeps what it last read until the time is up');
    two.clock.advance(cacheTime);
    t.is(await use(two), 'ok');

    t.is((await one.call('DELETE', `/v1/keys/${keyId}`, { credential: token, wallet: alice.address })).status, 204);
    t.is(await use(one), 'invalid_api_key');
    t.is(await use(two), 'ok');
    two.clock.advance(cacheTime);
    t.is(await use(two), 'invalid_api_key');
  },
);
