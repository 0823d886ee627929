import test from 'ava';
import type { VerificationReport } from '../../../src/application/proofs/verify-proof.js';
import { CHECKS } from '../../../src/domain/protocol/failures.js';
import { proofVectors } from '../../support/fixtures.js';
import { cli, tempDir, writeFiles } from './harness.js';

const vectors = proofVectors();
const validMinimal = vectors.cases.find((c) => c.name === 'valid-minimal')!;

for (const ed25519 of ['sodium', 'node', 'tweetnacl']) {
  for (const c of vectors.cases) {
    test(`verify --ed25519 ${ed25519}: ${c.name} → exit ${c.expect.valid ? 0 : 1}`, async (t) => {
      const dir = tempDir(t);
      const text = JSON.stringify(c.envelope);
      const human = await cli(['verify', '--ed25519', ed25519, '-'], dir, text);
      t.is(human.stderr, '');
      const lines = human.stdout.trimEnd().split('\n');
      t.is(lines.length, 1 + CHECKS.length, 'the verdict, then one line per check');
      if (c.expect.valid) {
        t.is(human.code, 0, human.stdout);
        t.is(lines[0], `valid  proof_id ${c.expect.proof_id}`);
      } else {
        t.is(human.code, 1, human.stdout);
        t.true(lines[0]!.startsWith('invalid  '));
        for (const word of c.expect.detail_mentions ?? []) t.true(lines[0]!.includes(word), `"${lines[0]}" lacks "${word}"`);
        t.is(lines.filter((l) => / failed$/.test(l)).length, 1);
      }
      const json = await cli(['verify', '--json', '--ed25519', ed25519, '-'], dir, text);
      t.is(json.code, human.code);
      const report = JSON.parse(json.stdout) as VerificationReport;
      t.is(report.valid, c.expect.valid);
      t.is(report.proof_id, c.expect.proof_id ?? null);
      t.deepEqual(Object.keys(report.checks), [...CHECKS]);
      t.is(report.code === null, c.expect.valid);
    });
  }
}

test('verify reads a file and accepts the {"envelope": …} wrapper', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, {
    'bare.json': JSON.stringify(validMinimal.envelope),
    'wrapped.json': JSON.stringify({ envelope: validMinimal.envelope }),
  });
  for (const file of ['bare.json', 'wrapped.json']) {
    const r = await cli(['verify', file], dir);
    t.is(r.code, 0, r.stdout);
    t.regex(r.stdout, new RegExp(`^valid  proof_id ${validMinimal.expect.proof_id}\\n`));
  }
});

test('a wrapper around a tampered envelope is still invalid', async (t) => {
  const envelope = structuredClone(validMinimal.envelope) as { payload: { subject: { task_id: string } } };
  envelope.payload.subject.task_id = 'task-2';
  const r = await cli(['verify', '--json', '-'], tempDir(t), JSON.stringify({ envelope }));
  t.is(r.code, 1);
  t.is((JSON.parse(r.stdout) as VerificationReport).code, 'payload_hash_mismatch');
});

test('input that is JSON but no envelope is invalid (exit 1), not an input error', async (t) => {
  const r = await cli(['verify', '-'], tempDir(t), '{"hello": "world"}');
  t.is(r.code, 1);
  t.true(r.stdout.startsWith('invalid  '), r.stdout);
});

test('verify input errors exit 2 with a message on stderr', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'broken.json': '{"payload": ' });
  const missing = await cli(['verify', 'nope.json'], dir);
  t.is(missing.code, 2);
  t.is(missing.stderr, 'proof-registry: nope.json: no such file\n');
  t.is(missing.stdout, '');
  const broken = await cli(['verify', 'broken.json'], dir);
  t.is(broken.code, 2);
  t.regex(broken.stderr, /^proof-registry: broken\.json: not valid JSON \(/);
  const stdin = await cli(['verify', '-'], dir, '');
  t.is(stdin.code, 2);
  t.regex(stdin.stderr, /^proof-registry: stdin: not valid JSON/);
  const directory = await cli(['verify', '.'], dir);
  t.is(directory.code, 2);
  t.regex(directory.stderr, /is a directory/);
});

test('verify usage errors exit 2', async (t) => {
  const dir = tempDir(t);
  const adapter = await cli(['verify', '--ed25519', 'openssl', '-'], dir, '{}');
  t.is(adapter.code, 2);
  t.regex(adapter.stderr, /--ed25519 must be "sodium", "node" or "tweetnacl"/);
  const none = await cli(['verify'], dir);
  t.is(none.code, 2);
  t.regex(none.stderr, /missing <envelope\.json>/);
});
