import test, { type ExecutionContext } from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { keyFileOf, keyFileText } from '../../../src/adapters/cli/key-file.js';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { LOG } from '../../../src/composition/log.tokens.js';
import { resolve } from '../../../src/composition/token.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { cli, tempDir } from './harness.js';

/** A registry with the log key in `keyFile`, whose log advances when the test says. */
async function registry(t: ExecutionContext, dir: string, keyFile: string): Promise<TestRegistry & { advance(): Promise<void> }> {
  const r = await startTestRegistry({
    env: { DATA_DIR: dir, LOG_CHECKPOINT_INTERVAL_MS: '3600000', LOG_SIGNING_KEY_FILE: keyFile, LOG_ORIGIN: 'registry.example/log' },
  });
  t.teardown(() => r.close());
  const maintenance = await resolve(r.container, LOG.Maintenance);
  return {
    ...r,
    advance: async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const outcome = await maintenance.tick();
        if (outcome._tag === 'Advanced' && E.isRight(outcome.result)) return;
      }
      throw new Error('the log did not advance');
    },
  };
}

async function submit(r: TestRegistry, taskId: string): Promise<string> {
  const envelope = anEnvelope({ taskId });
  const reply = await r.call(WALLET_A, 'POST', '/v1/proofs', { envelope });
  return reply.body.proof_id as string;
}

function sharedKey(dir: string): string {
  const file = join(dir, 'log-key.json');
  writeFileSync(file, keyFileText(keyFileOf(new Uint8Array(32).fill(5), new NodeEd25519())), { mode: 0o600 });
  return file;
}

test('log checkpoint, inclusion and consistency fetch and verify; verify --inclusion checks an envelope is in the log, offline', async (t) => {
  const dir = tempDir(t);
  const r = await registry(t, dir, sharedKey(dir));
  const ids = [await submit(r, 'cli-0'), await submit(r, 'cli-1'), await submit(r, 'cli-2')];
  await r.advance();
  const { vkey } = (await r.call(null, 'GET', '/v1/log/key')).body as { vkey: string };

  const checkpoint = await cli(['log', 'checkpoint', '--url', r.url], dir);
  t.is(checkpoint.code, 0, checkpoint.stderr);
  t.regex(checkpoint.stdout, /^checkpoint verified {2}registry\.example\/log {2}size 3 {2}root [0-9a-f]{64}\n$/);
  writeFileSync(join(dir, 'old-checkpoint.txt'), (await r.call(null, 'GET', '/v1/log/checkpoint')).body as string);

  const inclusion = await cli(['log', 'inclusion', ids[1]!, '--url', r.url, '--vkey', vkey, '--out', 'inclusion.json'], dir);
  t.is(inclusion.code, 0, inclusion.stderr);
  t.regex(inclusion.stdout, /^inclusion verified {2}leaf 1 of 3/);

  const envelopeFile = join(dir, 'envelope.json');
  writeFileSync(envelopeFile, JSON.stringify(anEnvelope({ taskId: 'cli-1' })));
  const offline = await cli(['verify', 'envelope.json', '--inclusion', 'inclusion.json', '--vkey', vkey], dir);
  t.is(offline.code, 0, offline.stdout + offline.stderr);
  t.regex(offline.stdout, /in the log {2}leaf 1 of 3, checkpoint of registry\.example\/log signed by its key/);
  // Another envelope with this inclusion answer: not shown in the log.
  writeFileSync(join(dir, 'other.json'), JSON.stringify(anEnvelope({ taskId: 'cli-2' })));
  const other = await cli(['verify', 'other.json', '--inclusion', 'inclusion.json', '--vkey', vkey], dir);
  t.is(other.code, 1);
  t.regex(other.stdout, /not shown in the log {2}the proof is about another leaf/);
  // A changed hash in the proof fails.
  const answer = JSON.parse(readFileSync(join(dir, 'inclusion.json'), 'utf8')) as { hashes: string[] };
  answer.hashes[0] = answer.hashes[0]!.replace(/^./, (c) => (c === '0' ? '1' : '0'));
  writeFileSync(join(dir, 'tampered.json'), JSON.stringify(answer));
  t.is((await cli(['verify', 'envelope.json', '--inclusion', 'tampered.json', '--vkey', vkey], dir)).code, 1);
  t.is((await cli(['verify', 'envelope.json', '--inclusion', 'inclusion.json'], dir)).code, 2);

  await submit(r, 'cli-3');
  await r.advance();
  const consistency = await cli(['log', 'consistency', '--url', r.url, '--old', 'old-checkpoint.txt'], dir);
  t.is(consistency.code, 0, consistency.stderr);
  t.regex(consistency.stdout, /^consistency verified {2}size 3 → 4/);
  t.true(ids.length === 3);
});

test('log monitor follows a log, and exits 1 with the reason when the log it sees forks', async (t) => {
  const dir = tempDir(t);
  const key = sharedKey(dir);
  const honest = await registry(t, join(dir, 'a'), key);
  for (let i = 0; i < 3; i++) await submit(honest, `honest-${i}`);
  await honest.advance();
  const first = await cli(['log', 'monitor', '--url', honest.url, '--state', 'monitor.json', '--once'], dir);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stdout, /checkpoint 3 {2}root [0-9a-f]{64} {2}first seen/);
  for (let i = 3; i < 5; i++) await submit(honest, `honest-${i}`);
  await honest.advance();
  const second = await cli(['log', 'monitor', '--url', honest.url, '--state', 'monitor.json', '--once'], dir);
  t.is(second.code, 0, second.stderr);
  t.regex(second.stdout, /checkpoint 5 {2}root [0-9a-f]{64} {2}consistent with 3/);

  // The same key signing another history: a fork the monitor must catch.
  const forked = await registry(t, join(dir, 'b'), key);
  for (let i = 0; i < 7; i++) await submit(forked, `forked-${i}`);
  await forked.advance();
  const caught = await cli(['log', 'monitor', '--url', forked.url, '--state', 'monitor.json', '--once'], dir);
  t.is(caught.code, 1);
  t.regex(caught.stderr, /the log is inconsistent: the tree of 7 does not extend the tree of 5 it published/);
  // The state still holds the last good checkpoint.
  t.regex(readFileSync(join(dir, 'monitor.json'), 'utf8'), /\\n5\\n/);
});
