import test from 'ava';
import { actoPersonalityContract } from '../../../contracts/acto-personality.contract.js';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { postgresSchemaUrl } from '../../../support/databases.js';
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
