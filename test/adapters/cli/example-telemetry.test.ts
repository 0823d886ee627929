import test from 'ava';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ProofEnvelope } from '../../../src/domain/protocol/envelope.js';
import { cli, tempDir } from './harness.js';

const repo = resolve(import.meta.dirname, '../../..');
const example = join(repo, 'examples', 'run.jsonl');

// The README's step 6 as a reader runs it, in the checkout: keygen, then sign the shipped
// examples/run.jsonl, then verify what sign printed.
test("README step 6 signs examples/run.jsonl into an envelope that verifies, holding the file's events", async (t) => {
  const dir = tempDir(t);
  t.is((await cli(['keygen', '--out', join(dir, 'device-key.json')], repo)).code, 0);
  const signed = await cli(['sign', '--key', join(dir, 'device-key.json'), '--task', 'pick-42', '--robot', 'arm-07', 'examples/run.jsonl'], repo);
  t.is(signed.code, 0, signed.stderr);
  const envelope = JSON.parse(signed.stdout) as ProofEnvelope;
  const lines = readFileSync(example, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  t.deepEqual(
    envelope.payload.telemetry_normalized.events,
    lines.map((line) => JSON.parse(line)),
  );
  t.like(envelope.payload.subject, { task_id: 'pick-42', robot_id: 'arm-07' });
  const verified = await cli(['verify', '-'], repo, signed.stdout);
  t.is(verified.code, 0, verified.stdout);
});

test('the README shows the first two lines of examples/run.jsonl as they are', (t) => {
  const readme = readFileSync(join(repo, 'README.md'), 'utf8');
  const [first, second] = readFileSync(example, 'utf8').split('\n');
  t.true(readme.includes(`$ head -n 2 examples/run.jsonl\n${first}\n${second}\n`));
  t.true(readme.includes('examples/run.jsonl > envelope.json'));
});
