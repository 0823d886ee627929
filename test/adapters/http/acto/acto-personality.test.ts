import test from 'ava';
import { actoPersonalityContract } from '../../../contracts/acto-personality.contract.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresSchemaUrl } from '../../../support/databases.js';
import { aWallet } from '../../../support/identity.js';
import { startIdentityApp } from '../../../support/identity-app.js';

// The ACTO SDK's calls against /acto on each store: in memory, SQLite, PostgreSQL.
test('acto personality on the in-memory stores', async (t) => {
  const app = await startIdentityApp({}, { stores: 'memory' });
  t.teardown(() => app.close());
  await actoPersonalityContract(t, app);
});

test('acto personality on SQLite', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'acto-personality-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const app = await startIdentityApp({ DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}` }, { stores: 'database' });
  t.teardown(() => app.close());
  await actoPersonalityContract(t, app);
});

test('acto personality on PostgreSQL', async (t) => {
  const { url } = await postgresSchemaUrl(t, 'acto personality');
  const app = await startIdentityApp({ DATABASE_URL: url }, { stores: 'database' });
  t.teardown(() => app.close());
  await actoPersonalityContract(t, app);
});

test('acto personality: the same rate limit per key as /v1, answered as the SDK reads it (429, Retry-After, detail)', async (t) => {
  const app = await startIdentityApp({ RATE_LIMIT_PER_MIN: '3' }, { stores: 'memory' });
  t.teardown(() => app.close());
  const wallet = aWallet(43);
  await app.fund(wallet, '60000');
  const { key } = await app.apiKey(wallet);
  const headers = { 'content-type': 'application/json', 'user-agent': 'acto-python-sdk/1.0.0' };
  const statuses: number[] = [];
  let last;
  for (let i = 0; i < 4; i++) {
    last = await app.call('GET', '/acto/v1/fleet/groups', { credential: key, wallet: wallet.address, headers });
    statuses.push(last.status);
  }
  t.deepEqual(statuses, [200, 200, 200, 429]);
  t.regex(last!.headers.get('retry-after') ?? '', /^\d+$/);
  t.is(typeof last!.body.detail, 'string');
});
