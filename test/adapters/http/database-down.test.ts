import test from 'ava';
import pg from 'pg';
import { isDatabaseError, isUnavailable } from '../../../src/adapters/http/app.js';
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

test('which failures are a dependency down (503) and which are the database at all (counted)', (t) => {
  const pgError = (code: string) => Object.assign(new Error('x'), { code, severity: 'FATAL' });
  for (const err of [pgError('3D000'), pgError('57P01'), pgError('08006'), pgError('53300'), pgError('28P01'), { code: 'ECONNREFUSED' }, { code: 'ENOTFOUND' }, { name: 'KnexTimeoutError' }, { code: 'SQLITE_BUSY' }]) {
    t.true(isUnavailable(err), JSON.stringify(err));
    t.true(isDatabaseError(err), JSON.stringify(err));
  }
  for (const err of [pgError('23505'), pgError('42P01'), { code: 'SQLITE_CONSTRAINT' }]) {
    t.false(isUnavailable(err), JSON.stringify(err));
    t.true(isDatabaseError(err), JSON.stringify(err));
  }
  for (const err of [new TypeError('bug'), { code: '3D000' }, null, 'text']) {
    t.false(isUnavailable(err), JSON.stringify(err));
    t.false(isDatabaseError(err), JSON.stringify(err));
  }
});

test('a start that fails names the setting: the database, or where to listen', async (t) => {
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = '/registry_no_such_database';
  const noDatabase = await t.throwsAsync(startTestRegistry({ env: { DATABASE_URL: url.toString() } }));
  t.regex(noDatabase!.message, /^DATABASE_URL: database "registry_no_such_database" does not exist/);
  const noHost = await t.throwsAsync(startTestRegistry({ env: { HOST: 'no-such-host.invalid' } }));
  t.regex(noHost!.message, /^HOST and PORT: getaddrinfo/);
});
