import { copyFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import { createBackupCommand } from '../../../src/adapters/cli/backup.js';
import { WALLET_A } from '../../support/mothers.js';
import { startTestRegistry } from '../../support/registry.js';
import { checkRestored, submitUnderLoad } from '../../support/submissions-under-load.js';
import { cli, tempDir } from './harness.js';

async function backup(args: string[], cwd: string, env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await createBackupCommand(env)
    .run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: Readable.from([]), cwd })
    .catch((err: Error) => ((stderr += err.message), 2));
  return { code, stdout, stderr };
}

test('a backup taken while proofs are acknowledged restores every proof acknowledged before it began, unchanged and verifiable', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}` };
  const live = await startTestRegistry({ env });
  t.teardown(() => live.close());
  const load = submitUnderLoad(live, 8, 'backup');
  await load.reach(60);
  // What was acknowledged before the backup began; submissions go on during it.
  const before = [...load.acknowledged];
  t.true(load.inFlight() > 0, 'submissions are in flight as the backup begins');
  const made = await backup(['backup.sqlite'], dir, env);
  t.deepEqual(made, { code: 0, stdout: `backed up to ${join(dir, 'backup.sqlite')}\n`, stderr: '' });
  await load.reach(before.length + 20);
  await load.stop();
  await live.close();

  // Restore: the copy in place of a database file, and the service started on it.
  const restoredFile = join(dir, 'restored.sqlite');
  copyFileSync(join(dir, 'backup.sqlite'), restoredFile);
  const restored = await startTestRegistry({ env: { DATABASE_URL: `sqlite:${restoredFile}` } });
  t.teardown(() => restored.close());
  await checkRestored(t, restored, before);
  // Nothing in the copy that was never acknowledged.
  const acknowledged = new Set(load.acknowledged.map((a) => a.proofId));
  const listed: string[] = [];
  for (let cursor: string | null = null, page = 0; page === 0 || cursor !== null; page++) {
    const got = await restored.call(WALLET_A, 'GET', `/v1/proofs?limit=100${cursor === null ? '' : `&cursor=${cursor}`}`);
    t.is(got.status, 200, JSON.stringify(got.body));
    listed.push(...(got.body.items as Array<{ proof_id: string }>).map((item) => item.proof_id));
    cursor = got.body.next_cursor as string | null;
  }
  t.true(listed.length >= before.length);
  t.true(listed.every((id) => acknowledged.has(id)));
});

test('backup refuses to overwrite a file, a missing database, PostgreSQL and a wrong argument count', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}` };
  t.deepEqual(await backup(['copy.sqlite'], dir, env), { code: 2, stdout: '', stderr: `DATABASE_URL: no database file at ${join(dir, 'registry.sqlite')}` });
  t.is((await cli(['migrate'], dir, '')).code, 0, 'the default database of this directory');
  writeFileSync(join(dir, 'taken.sqlite'), 'not empty');
  const refused = await backup(['taken.sqlite'], dir, { DATABASE_URL: 'sqlite:data/registry.sqlite' });
  t.is(refused.code, 2);
  t.is(refused.stderr, 'taken.sqlite already exists; a backup never overwrites a file');
  const pg = await backup(['x.dump'], dir, { DATABASE_URL: 'postgres://127.0.0.1:1/none' });
  t.deepEqual(pg, { code: 2, stdout: '', stderr: 'backup copies an SQLite database; back PostgreSQL up with pg_dump (see docs/operations.md)' });
  t.is((await backup([], dir, env)).code, 2);
  t.regex((await cli(['--help'], dir)).stdout, /^ {2}backup +copy the live SQLite database/m);
});
