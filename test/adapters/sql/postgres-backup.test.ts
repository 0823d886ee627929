import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import pg from 'pg';
import { postgresSchemaUrl, TEST_POSTGRES_URL } from '../../support/databases.js';
import { startTestRegistry } from '../../support/registry.js';
import { checkRestored, submitUnderLoad } from '../../support/submissions-under-load.js';
import { tempDir } from '../cli/harness.js';

const run = promisify(execFile);

/** The server's major version, or null when it cannot be asked (the test then fails on connecting). */
async function serverMajor(): Promise<number | null> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL });
  try {
    await client.connect();
    const { rows } = await client.query<{ server_version_num: string }>('show server_version_num');
    return Math.floor(Number(rows[0]!.server_version_num) / 10_000);
  } catch {
    return null;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/**
 * pg_dump and pg_restore of the machine's PostgreSQL (Debian's /usr/lib/postgresql/<major>/bin),
 * the newest major at least the server's: pg_dump refuses a newer server than itself.
 */
function binaries(major: number | null): { pgDump: string; pgRestore: string } | null {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root)
    ? readdirSync(root)
        .map(Number)
        .filter((m) => Number.isInteger(m) && m >= (major ?? 0))
    : [];
  for (const m of majors.sort((a, b) => b - a)) {
    const bin = join(root, String(m), 'bin');
    if (existsSync(join(bin, 'pg_dump')) && existsSync(join(bin, 'pg_restore'))) return { pgDump: join(bin, 'pg_dump'), pgRestore: join(bin, 'pg_restore') };
  }
  return null;
}

const major = await serverMajor();
const found = binaries(major);

// Without the binaries the test is not declared, and the run says so; in CI (REQUIRE_POSTGRES=1)
// it is declared anyway and fails, so a missing pg_dump never passes there unnoticed.
if (found === null && process.env.REQUIRE_POSTGRES !== '1') {
  console.log(`PostgreSQL backup: no pg_dump and pg_restore for PostgreSQL ${major ?? '?'} in /usr/lib/postgresql, so the pg_dump test is not run`);
} else {
  test('a pg_dump taken while proofs are acknowledged restores every proof acknowledged before it began, unchanged and verifiable', async (t) => {
    if (found === null) return t.fail(`REQUIRE_POSTGRES=1 and no pg_dump and pg_restore for PostgreSQL ${major ?? '?'} in /usr/lib/postgresql`);
    const { url, admin } = await postgresSchemaUrl(t, 'backup');
    const schema = new URL(url).searchParams.get('options')!.replace('-c search_path=', '');
    const live = await startTestRegistry({ env: { DATABASE_URL: url } });
    t.teardown(() => live.close());
    const load = submitUnderLoad(live, 8, 'pg-backup');
    await load.reach(60);
    const before = [...load.acknowledged];
    t.true(load.inFlight() > 0, 'submissions are in flight as the backup begins');
    const dump = join(tempDir(t), 'registry.dump');
    await run(found.pgDump, ['--format=custom', `--schema=${schema}`, `--file=${dump}`, `--dbname=${TEST_POSTGRES_URL}`]);
    await load.reach(before.length + 20);
    await load.stop();
    await live.close();

    // Restore where the registry was: its schema moved aside (and dropped after the test).
    await admin.knex.raw('alter schema ?? rename to ??', [schema, `${schema}_live`]);
    t.teardown(() => admin.knex.raw('drop schema if exists ?? cascade', [`${schema}_live`]));
    await run(found.pgRestore, ['--exit-on-error', `--dbname=${TEST_POSTGRES_URL}`, dump]);
    const restored = await startTestRegistry({ env: { DATABASE_URL: url } });
    t.teardown(() => restored.close());
    await checkRestored(t, restored, before);
    const acknowledged = new Set(load.acknowledged.map((a) => a.proofId));
    const rows = (await admin.knex.withSchema(schema).table('proofs').select('proof_id')) as Array<{ proof_id: string }>;
    t.true(rows.length >= before.length);
    t.true(
      rows.every((r) => acknowledged.has(r.proof_id)),
      'the copy holds only acknowledged proofs',
    );
  });
}
