import test from 'ava';
import pg from 'pg';
import { TEST_POSTGRES_URL } from '../../support/databases.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry } from '../../support/registry.js';

test('a database that is gone is 503 with Retry-After, counted in database_errors_total', async (t) => {
  const name = `registry_gone_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  await admin.connect();
  t.teardown(async () => {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });
  await admin.query(`create database ${name}`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const registry = await startTestRegistry({ env: { DATABASE_URL: url.toString() } });
  t.teardown(() => registry.close());
  t.is((await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'before' }) })).status, 200);

  await admin.query(`drop database ${name} with (force)`);
  for (const [method, path, body] of [
    ['GET', '/v1/proofs', undefined],
    ['POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'after' }) }],
    ['POST', '/v1/proofs/search', {}],
  ] as const) {
    const res = await registry.call(WALLET_A, method, path, body);
    t.is(res.status, 503, `${method} ${path}: ${JSON.stringify(res.body)}`);
    t.truthy(res.headers.get('retry-after'));
    t.regex(res.body.detail, /unavailable/);
  }
  const metrics = await registry.call(null, 'GET', '/metrics');
  const errors = Number(/^database_errors_total (\d+)/m.exec(metrics.body)?.[1]);
  t.true(errors >= 3, `database_errors_total ${errors}`);
});

test('a start that fails names the setting: the database, or where to listen', async (t) => {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = '/registry_no_such_database';
  const noDatabase = await t.throwsAsync(startTestRegistry({ env: { DATABASE_URL: url.toString() } }));
  t.regex(noDatabase!.message, /^DATABASE_URL: database "registry_no_such_database" does not exist/);
  const noHost = await t.throwsAsync(startTestRegistry({ env: { HOST: 'no-such-host.invalid' } }));
  t.regex(noHost!.message, /^HOST and PORT: getaddrinfo/);
});
