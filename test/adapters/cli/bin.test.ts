import test from 'ava';
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EVENTS, jsonl, tempDir, writeFiles } from './harness.js';

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'proof-registry.js');

interface BinResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The real executable in a child process, from source (not a stale dist/ build). */
function proofRegistry(args: readonly string[], cwd: string, stdin = ''): Promise<BinResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd,
      env: { ...process.env, PROOF_REGISTRY_FROM_SOURCE: '1' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

test('the bin runs keygen, sign and verify as separate processes', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'events.jsonl': jsonl(EVENTS) });

  const keygen = await proofRegistry(['keygen', '--out', 'key.json'], dir);
  t.is(keygen.code, 0, keygen.stderr);
  t.is(statSync(join(dir, 'key.json')).mode & 0o777, 0o600);

  const sign = await proofRegistry(['sign', '--key', 'key.json', '--task', 'bin-test', 'events.jsonl'], dir);
  t.is(sign.code, 0, sign.stderr);
  const envelope = JSON.parse(sign.stdout) as { payload: { payload_hash: string; subject: { task_id: string } } };
  t.is(envelope.payload.subject.task_id, 'bin-test');

  const verify = await proofRegistry(['verify', '-'], dir, sign.stdout);
  t.is(verify.code, 0, verify.stdout + verify.stderr);
  t.true(verify.stdout.startsWith(`valid  proof_id ${envelope.payload.payload_hash}\n`));

  envelope.payload.subject.task_id = 'forged';
  const forged = await proofRegistry(['verify', '--json', '-'], dir, JSON.stringify(envelope));
  t.is(forged.code, 1);
  t.is((JSON.parse(forged.stdout) as { code: string }).code, 'payload_hash_mismatch');

  const usage = await proofRegistry(['verify', 'missing.json'], dir);
  t.is(usage.code, 2);
  t.is(usage.stderr, 'proof-registry: missing.json: no such file\n');
});
