import { Readable } from 'node:stream';
import test from 'ava';
import { createMigrateCommand } from '../../../src/adapters/cli/migrate.js';
import { appliedMigrations, openDatabase } from '../../../src/adapters/sql/index.js';
import { migrations } from '../../../migrations/index.js';
import { postgresSchemaUrl } from '../../support/databases.js';
import { cli, tempDir } from './harness.js';

async function migrate(args: string[], cwd: string, env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await createMigrateCommand(env)
    .run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: Readable.from([]), cwd })
    .catch((err: Error) => {
      stderr += err.message;
      return 2;
    });
  return { code, stdout, stderr };
}

const names = migrations.map((m) => m.name);

test('migrate applies every migration once, says so, and --status tells applied from pending', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: 'sqlite:registry.sqlite' };
  t.is((await migrate(['--status'], dir, env)).stdout, names.map((n) => `pending  ${n}\n`).join(''));
  t.deepEqual(await migrate([], dir, env), { code: 0, stdout: names.map((n) => `applied  ${n}\n`).join(''), stderr: '' });
  t.deepEqual(await migrate([], dir, env), { code: 0, stdout: 'up to date\n', stderr: '' });
  t.is((await migrate(['--status'], dir, env)).stdout, names.map((n) => `applied  ${n}\n`).join(''));
  const db = await openDatabase(`sqlite:${dir}/registry.sqlite`);
  t.teardown(() => db.close());
  t.deepEqual(await appliedMigrations(db), names);
});

test('migrate on PostgreSQL, twice at once: each migration is applied once', async (t) => {
  const { url, admin } = await postgresSchemaUrl(t, 'cli_migrate');
  const env = { DATABASE_URL: url };
  const runs = await Promise.all([migrate([], tempDir(t), env), migrate([], tempDir(t), env)]);
  t.true(
    runs.every((r) => r.code === 0),
    JSON.stringify(runs),
  );
  t.deepEqual(runs.flatMap((r) => r.stdout.split('\n').filter((l) => l.startsWith('applied'))).sort(), names.map((n) => `applied  ${n}`).sort());
  t.deepEqual(await appliedMigrations(admin), names);
});

test('migrate names DATABASE_URL when it cannot open it, and is listed in the help', async (t) => {
  const bad = await migrate([], tempDir(t), { DATABASE_URL: 'mysql://nowhere/db' });
  t.is(bad.code, 2);
  t.regex(bad.stderr, /^DATABASE_URL: /);
  t.regex((await cli(['--help'], tempDir(t))).stdout, /^ {2}migrate {2}/m);
});
