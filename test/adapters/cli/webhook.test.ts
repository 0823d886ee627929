import test from 'ava';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { Webhook } from 'standardwebhooks';
import { CliError } from '../../../src/adapters/cli/command.js';
import { createWebhookCommand, parseHeaderDump } from '../../../src/adapters/cli/webhook.js';
import { newWebhookSecret, signatureHeader } from '../../../src/adapters/webhooks/standard-webhook-signer.js';
import { cli, tempDir, writeFiles } from './harness.js';

const SECRET = newWebhookSecret();
const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';
const TS = 1_790_000_000;
const SIGNED_AT = new Date(TS * 1000).toISOString();
const BODY = '{"type":"proof.accepted","data":{"proof_id":"4d7d","note":"Zürich ✓","n":1.0}}';
// Signed by the reference implementation, so the command is checked against more than our own signer.
const SIGNATURE = new Webhook(SECRET).sign(ID, new Date(TS * 1000), BODY);
const AT = ['--now', String(TS + 10)];

const args = (signature = SIGNATURE) => ['webhook', 'verify', '--secret', SECRET, '--id', ID, '--timestamp', String(TS), '--signature', signature, ...AT];

/** Runs the command with its own environment, reporting errors as the CLI's entry does. */
async function withEnv(env: Record<string, string>, argv: string[], cwd: string, stdin = '') {
  let stdout = '';
  let stderr = '';
  const io = {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Readable.from([Buffer.from(stdin, 'utf8')]),
    cwd,
  };
  const code = await createWebhookCommand(env)
    .run(argv, io)
    .catch((error: unknown) => {
      if (!(error instanceof CliError)) throw error;
      stderr += error.message;
      return error.exitCode;
    });
  return { code, stdout, stderr };
}

test('a webhook with its headers as options verifies, from a file and from stdin', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'body.json': BODY });
  const fromFile = await cli([...args(), 'body.json'], dir);
  t.is(fromFile.code, 0, fromFile.stdout + fromFile.stderr);
  t.is(fromFile.stdout, `valid: webhook ${ID} signed ${SIGNED_AT}\n`);
  t.is(fromFile.stderr, '');
  for (const stdinArgs of [[...args(), '-'], args()]) {
    const fromStdin = await cli(stdinArgs, dir, BODY);
    t.is(fromStdin.code, 0, fromStdin.stdout + fromStdin.stderr);
    t.is(fromStdin.stdout, fromFile.stdout);
  }
});

test('a header dump gives the three headers: curl -D output and a request copied from a log', async (t) => {
  const dir = tempDir(t);
  const other = newWebhookSecret();
  const rotated = `${signatureHeader([other], ID, TS, BODY)} ${SIGNATURE}`;
  writeFiles(dir, {
    'body.json': BODY,
    'curl.txt': `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nWebhook-Id: ${ID}\r\nWEBHOOK-TIMESTAMP: ${TS}\r\nwebhook-signature:   ${rotated}  \r\n\r\n`,
    'request.txt': `POST /hooks/in HTTP/1.1\nHost: hooks.example:443\nwebhook-id: ${ID}\nwebhook-timestamp: ${TS}\nwebhook-signature: ${SIGNATURE}\n\n${BODY}\nwebhook-id: not-this-one\n`,
  });
  for (const file of ['curl.txt', 'request.txt']) {
    const r = await cli(['webhook', 'verify', '--secret', SECRET, '--headers', file, ...AT, 'body.json'], dir);
    t.is(r.code, 0, `${file}: ${r.stdout}${r.stderr}`);
    t.is(r.stdout, `valid: webhook ${ID} signed ${SIGNED_AT}\n`);
  }
});

test('the secret can come from PROOF_REGISTRY_WEBHOOK_SECRET', async (t) => {
  const dir = tempDir(t);
  const argv = ['verify', '--id', ID, '--timestamp', String(TS), '--signature', SIGNATURE, ...AT];
  const r = await withEnv({ PROOF_REGISTRY_WEBHOOK_SECRET: SECRET }, argv, dir, BODY);
  t.is(r.code, 0, r.stdout + r.stderr);
  t.is(r.stdout, `valid: webhook ${ID} signed ${SIGNED_AT}\n`);
  const wrong = await withEnv({ PROOF_REGISTRY_WEBHOOK_SECRET: newWebhookSecret() }, argv, dir, BODY);
  t.is(wrong.code, 1);
});

test('a tampered body, id or signature is invalid: exit 1 with the reason', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'body.json': BODY, 'tampered.json': BODY.replace('accepted', 'refused'), 'reformatted.json': JSON.stringify(JSON.parse(BODY), null, 2) });
  for (const file of ['tampered.json', 'reformatted.json']) {
    const r = await cli([...args(), file], dir);
    t.is(r.code, 1, file);
    t.is(r.stdout, 'invalid: no signature matches\n');
  }
  const otherId = await cli(
    [...args(), 'body.json'].map((a) => (a === ID ? `${ID}x` : a)),
    dir,
  );
  t.is(otherId.code, 1);
  const noV1 = await cli([...args(SIGNATURE.replace('v1,', 'v2,')), 'body.json'], dir);
  t.is(noV1.code, 1);
  t.is(noV1.stdout, 'invalid: no v1 signature in the header\n');
});

test('the body is compared as bytes, not as decoded text', async (t) => {
  const dir = tempDir(t);
  const bytes = Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]); // {"a":"\xff\xfe"}, not UTF-8
  writeFileSync(join(dir, 'raw.bin'), bytes);
  const signature = signatureHeader([SECRET], ID, TS, bytes);
  t.is((await cli([...args(signature), 'raw.bin'], dir)).code, 0);
  t.is(
    (await cli([...args(signatureHeader([SECRET], ID, TS, bytes.toString('utf8'))), 'raw.bin'], dir)).code,
    1,
    'the text a lossy decode gives is another body',
  );
});

test('a timestamp beyond the tolerance is invalid; --tolerance widens it', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'body.json': BODY });
  const base = ['webhook', 'verify', '--secret', SECRET, '--id', ID, '--timestamp', String(TS), '--signature', SIGNATURE];
  const stale = await cli([...base, '--now', String(TS + 301), 'body.json'], dir);
  t.is(stale.code, 1);
  t.is(stale.stdout, 'invalid: stale timestamp: signed 301 s ago, beyond the tolerance of 300 s\n');
  const future = await cli([...base, '--now', String(TS - 3600), 'body.json'], dir);
  t.is(future.code, 1);
  t.regex(future.stdout, /^invalid: future timestamp/);
  t.is((await cli([...base, '--now', String(TS + 3600), '--tolerance', '3600', 'body.json'], dir)).code, 0);
  // Without --now, this machine's clock decides.
  const nowS = Math.floor(Date.now() / 1000);
  const fresh = [
    'webhook',
    'verify',
    '--secret',
    SECRET,
    '--id',
    ID,
    '--timestamp',
    String(nowS),
    '--signature',
    signatureHeader([SECRET], ID, nowS, BODY),
    'body.json',
  ];
  t.is((await cli(fresh, dir)).code, 0);
  const old = [
    'webhook',
    'verify',
    '--secret',
    SECRET,
    '--id',
    ID,
    '--timestamp',
    '1000000000',
    '--signature',
    signatureHeader([SECRET], ID, 1_000_000_000, BODY),
    'body.json',
  ];
  t.regex((await cli(old, dir)).stdout, /^invalid: stale timestamp/);
});

test('usage and input errors exit 2 with a message on stderr', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, {
    'body.json': BODY,
    'empty.txt': 'HTTP/1.1 200 OK\n\n',
    'twice.txt': `webhook-id: a\nwebhook-id: b\nwebhook-timestamp: ${TS}\nwebhook-signature: ${SIGNATURE}\n`,
  });
  const noSecret = await withEnv({}, ['verify', '--id', ID, '--timestamp', String(TS), '--signature', SIGNATURE, 'body.json'], dir);
  t.is(noSecret.code, 2);
  t.is(noSecret.stderr, '--secret is required (or set PROOF_REGISTRY_WEBHOOK_SECRET)');
  const cases: [string[], RegExp][] = [
    [['webhook', 'verify', '--secret', SECRET, 'body.json'], /give --id, --timestamp and --signature, or --headers/],
    [['webhook', 'verify', '--secret', SECRET, '--id', ID, '--timestamp', String(TS), 'body.json'], /--signature is required/],
    [['webhook', 'verify', '--secret', 'whsec_short', '--id', ID, '--timestamp', String(TS), '--signature', SIGNATURE, 'body.json'], /the secret is malformed/],
    [['webhook', 'verify', '--secret', SECRET, '--headers', 'empty.txt', '--id', ID, 'body.json'], /--headers takes the place of --id/],
    [['webhook', 'verify', '--secret', SECRET, '--headers', 'empty.txt', 'body.json'], /^proof-registry: empty\.txt: no webhook-id header\n$/],
    [['webhook', 'verify', '--secret', SECRET, '--headers', 'twice.txt', 'body.json'], /twice\.txt: 2 webhook-id headers/],
    [['webhook', 'verify', '--secret', SECRET, '--headers', 'missing.txt', 'body.json'], /missing\.txt: no such file/],
    [[...args(), '--tolerance', 'soon', 'body.json'], /--tolerance must be a whole number of seconds/],
    [[...args(), 'missing.json'], /^proof-registry: missing\.json: no such file\n$/],
    [['webhook', 'sign', '--secret', SECRET], /unknown webhook command "sign": verify/],
    [['webhook'], /missing webhook command/],
  ];
  for (const [argv, stderr] of cases) {
    const r = await cli(argv, dir);
    t.is(r.code, 2, argv.join(' '));
    t.regex(r.stderr, stderr);
    t.is(r.stdout, '');
  }
});

test('webhook --help explains the command, and help lists it', async (t) => {
  const dir = tempDir(t);
  const help = await cli(['webhook', '--help'], dir);
  t.is(help.code, 0);
  t.regex(help.stdout, /^Usage: proof-registry webhook verify --secret/);
  for (const option of ['--headers', '--tolerance', '--now', 'PROOF_REGISTRY_WEBHOOK_SECRET', 'Exit code: 0 valid, 1 invalid'])
    t.true(help.stdout.includes(option), option);
  t.regex((await cli(['help'], dir)).stdout, /^ {2}webhook +verify a webhook's Standard Webhooks signature/m);
});

test('a header dump is read by name, case-insensitively, up to the end of the head', (t) => {
  const headers = parseHeaderDump('POST http://x:80/in HTTP/1.1\r\nX-A: 1\r\nx-a:2\r\n\r\nbody: not a header\r\n');
  t.deepEqual([...headers], [['x-a', ['1', '2']]]);
});
