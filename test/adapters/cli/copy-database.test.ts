import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createCopyDatabaseCommand } from '../../../src/adapters/cli/copy-database.js';
import { LOG } from '../../../src/composition/log.tokens.js';
import { resolve } from '../../../src/composition/token.js';
import { hexToBytes } from '../../../src/domain/protocol/encoding.js';
import { openCheckpoint, verifyConsistencyProof, verifyInclusionAnswer } from '../../../src/log-verification.js';
import { postgresSchemaUrl } from '../../support/databases.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { checkRestored, submitUnderLoad } from '../../support/submissions-under-load.js';
import { tempDir } from './harness.js';

async function copy(args: string[], cwd: string, env: Record<string, string>) {
  let stdout = '';
  let stderr = '';
  const code = await createCopyDatabaseCommand(env)
    .run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: Readable.from([]), cwd })
    .catch((err: Error & { exitCode?: number }) => ((stderr += err.message), err.exitCode ?? 2));
  return { code, stdout, stderr };
}

/** The log's latest checkpoint once it covers every leaf sequenced so far. */
async function signedCheckpoint(r: TestRegistry): Promise<string> {
  const maintenance = await resolve(r.container, LOG.Maintenance);
  for (let attempt = 0; attempt < 5; attempt++) {
    const outcome = await maintenance.tick();
    if (outcome._tag === 'Advanced' && E.isLeft(outcome.result) && outcome.result.left._tag !== 'IntegrationRaced') throw new Error(JSON.stringify(outcome));
  }
  return (await r.call(null, 'GET', '/v1/log/checkpoint')).body as string;
}

test('moving from SQLite to PostgreSQL: every acknowledged proof, the log and its signed checkpoint come across, and the moved registry goes on', async (t) => {
  const dir = tempDir(t);
  // One data directory: the log's signing key moves with the service.
  const before = { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}`, DATA_DIR: dir, LOG_CHECKPOINT_INTERVAL_MS: '3600000' };
  const live = await startTestRegistry({ env: before });
  const load = submitUnderLoad(live, 4, 'move');
  await load.reach(30);
  await load.stop();
  const key = (await live.call(null, 'GET', '/v1/log/key')).body.vkey as string;
  const checkpoint = await signedCheckpoint(live);
  const old = openCheckpoint(checkpoint, key);
  if (E.isLeft(old)) return t.fail(JSON.stringify(old.left));
  t.is(old.right.size, load.acknowledged.length);
  await live.close();

  const { url } = await postgresSchemaUrl(t, 'copy_cli');
  const made = await copy([url], dir, before);
  t.is(made.code, 0, made.stderr);
  t.regex(made.stdout, new RegExp(`^copied [\\d,]+ rows of 32 tables \\(${load.acknowledged.length} proofs\\); every table read back and matched\\n$`));
  t.regex(made.stderr, new RegExp(`^proofs: ${load.acknowledged.length} of ${load.acknowledged.length} rows \\(\\d+ s\\)$`, 'm'));
  t.regex(made.stderr, /^every table copied \(\d+ s\); reading each back from the target to compare with the source$/m);
  t.true(made.stderr.indexOf('every table copied') > made.stderr.lastIndexOf(' rows ('), 'the read-back is announced after the last table');

  const moved = await startTestRegistry({ env: { ...before, DATABASE_URL: url } });
  t.teardown(() => moved.close());
  await checkRestored(t, moved, load.acknowledged);
  // The same log, signed by the same key: the checkpoint served is the one signed before the move.
  t.is((await moved.call(null, 'GET', '/v1/log/checkpoint')).body, checkpoint);
  const first = load.acknowledged[0]!.proofId;
  const inclusion = await moved.call(null, 'GET', `/v1/log/inclusion/${first}`);
  t.is(inclusion.status, 200);
  t.true(E.isRight(verifyInclusionAnswer(inclusion.body, key, hexToBytes(first)!)));

  // New proofs take the next leaves, and the next checkpoint is consistent with the old one.
  const next = await moved.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'after-the-move' }) });
  t.is(next.status, 200, JSON.stringify(next.body));
  t.is(next.body.log_index, old.right.size);
  const later = openCheckpoint(await signedCheckpoint(moved), key);
  if (E.isLeft(later)) return t.fail(JSON.stringify(later.left));
  t.is(later.right.size, old.right.size + 1);
  const consistency = await moved.call(null, 'GET', `/v1/log/consistency?first=${old.right.size}&second=${later.right.size}`);
  const proof = { first: old.right.size, second: later.right.size, hashes: (consistency.body.hashes as string[]).map((h) => hexToBytes(h)!) };
  t.true(E.isRight(verifyConsistencyProof(proof, old.right.rootHash, later.right.rootHash)));
});

test('copy-database refuses a target holding rows (exit 1, nothing written), a bad target and a missing argument', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}`, DATA_DIR: dir };
  const live = await startTestRegistry({ env });
  const sent = await live.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'one' }) });
  t.is(sent.status, 200);
  await live.close();

  const into = await copy(['sqlite:copy.sqlite'], dir, env);
  t.is(into.code, 0, into.stderr);
  t.true(existsSync(join(dir, 'copy.sqlite')), 'a relative sqlite: path is relative to the working directory');
  const again = await copy(['sqlite:copy.sqlite'], dir, env);
  t.deepEqual(again, { code: 1, stdout: '', stderr: 'the target already holds rows in wallets: copy into a newly created, empty database' });

  t.deepEqual(await copy(['mysql://x'], dir, env), { code: 2, stdout: '', stderr: 'target-url: must start with sqlite: or postgres:// (got "mysql:")' });
  t.deepEqual(await copy(['sqlite::memory:'], dir, env), {
    code: 2,
    stdout: '',
    stderr: 'target-url: an in-memory database is gone when the command ends; name a file or a PostgreSQL database',
  });
  t.deepEqual(await copy([], dir, env), { code: 2, stdout: '', stderr: 'missing target-url (see --help)' });
});
