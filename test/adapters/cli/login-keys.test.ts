import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import { createKeysCommand } from '../../../src/adapters/cli/keys.js';
import { createLoginCommand } from '../../../src/adapters/cli/login.js';
import { createSubmitCommand } from '../../../src/adapters/cli/submit.js';
import type { Command } from '../../../src/adapters/cli/command.js';
import { startDashboardRegistry, type DashboardRegistry } from '../../support/dashboard-registry.js';
import { aWallet } from '../../support/identity.js';
import { anEnvelope } from '../../support/mothers.js';
import { tempDir } from './harness.js';

// login, keys and submit against a running service: what a headless integrator needs, no browser.
let registry: DashboardRegistry;
test.before(async () => {
  registry = await startDashboardRegistry();
});
test.after.always(async () => registry?.close());

async function run(command: Command, args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await command
    .run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: Readable.from([]), cwd })
    .catch((err: Error) => {
      stderr += err.message;
      return 2;
    });
  return { code, stdout, stderr };
}

const env = (dir: string) => ({ PROOF_REGISTRY_URL: registry.url, PROOF_REGISTRY_SESSION: join(dir, 'session.json') });
const keypairFile = (dir: string, n: number) => {
  const w = aWallet(n);
  writeFileSync(join(dir, 'wallet.json'), JSON.stringify([...w.secretKey]));
  return w;
};

test.serial('login signs in with a Solana keypair file and keeps the session readable by its owner only; keys create, list and delete use it', async (t) => {
  const dir = tempDir(t);
  const wallet = keypairFile(dir, 61);
  await registry.fund(wallet.address, '50000');
  const login = await run(createLoginCommand(env(dir)), ['--keypair', 'wallet.json'], dir);
  t.is(login.code, 0, login.stderr);
  t.regex(login.stdout, new RegExp(`^Signed in to ${registry.url} as ${wallet.address} until \\d{4}-`));
  t.is(statSync(join(dir, 'session.json')).mode & 0o777, 0o600);

  const keys = createKeysCommand(env(dir));
  const created = await run(keys, ['create', 'line robots', '--json'], dir);
  t.is(created.code, 0, created.stderr);
  const { key, key_id: keyId, name } = JSON.parse(created.stdout) as { key: string; key_id: string; name: string };
  t.is(name, 'line robots');
  const use = await fetch(`${registry.url}/v1/proofs`, { headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet.address } });
  t.is(use.status, 200);

  const listed = await run(keys, ['list'], dir);
  t.is(listed.code, 0);
  const lines = listed.stdout.trim().split('\n');
  t.regex(lines[0]!, /^KEY ID\s+NAME\s+PREFIX\s+SCOPES\s+ROBOTS\s+EXPIRES\s+STATUS\s+CREATED\s+LAST USED\s+REQUESTS\s+ERRORS$/);
  t.true(lines[1]!.startsWith(keyId));
  t.regex(lines[1]!, /line robots\s+pr_live_\S+\s+full\s+any\s+never\s+active\s.* 1\s+0$/);
  t.false(listed.stdout.includes(key), 'the key itself is never listed');
  const json = JSON.parse((await run(keys, ['list', '--json'], dir)).stdout) as Array<{ key_id: string; request_count: number }>;
  t.deepEqual(
    json.map((k) => [k.key_id, k.request_count]),
    [[keyId, 1]],
  );

  const text = await run(keys, ['create', 'second'], dir);
  t.regex(text.stdout, /The key, shown this once:\n\n {2}pr_live_\S+\n/);

  const deleted = await run(keys, ['delete', keyId], dir);
  t.is(deleted.stdout, `Deleted API key ${keyId}; requests made with it are refused from now on.\n`);
  t.is((await fetch(`${registry.url}/v1/proofs`, { headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet.address } })).status, 401);
  const again = await run(keys, ['delete', keyId], dir);
  t.is(again.code, 2);
  t.regex(again.stderr, /404 API key .* not found/);
});

test.serial('keys --keypair signs in for one command without saving a session', async (t) => {
  const dir = tempDir(t);
  const wallet = keypairFile(dir, 62);
  await registry.fund(wallet.address, '50000');
  const listed = await run(createKeysCommand(env(dir)), ['list', '--keypair', 'wallet.json'], dir);
  t.is(listed.code, 0, listed.stderr);
  t.is(listed.stdout, 'No API keys. Create one with: proof-registry keys create <name>\n');
  t.throws(() => statSync(join(dir, 'session.json')));
});

test.serial('an unfunded wallet, no session, a damaged keypair and an unreachable service each get a one-line reason', async (t) => {
  const dir = tempDir(t);
  const wallet = keypairFile(dir, 63);
  const poor = await run(createLoginCommand(env(dir)), ['--keypair', 'wallet.json'], dir);
  t.is(poor.code, 2);
  t.true(poor.stderr.includes('403 insufficient token balance: at least 50000 access tokens required, the wallet holds 0'));
  t.true(poor.stderr.includes(`fund it with: node bin/proof-registry.js ledger set ${wallet.address} 50000`));

  const none = await run(createKeysCommand(env(dir)), ['list'], dir);
  t.regex(none.stderr, /not signed in .*run: proof-registry login --keypair <wallet.json>/);

  writeFileSync(join(dir, 'bad.json'), JSON.stringify([...aWallet(64).secretKey.subarray(0, 32), ...aWallet(65).secretKey.subarray(32)]));
  t.regex((await run(createLoginCommand(env(dir)), ['--keypair', 'bad.json'], dir)).stderr, /does not match its secret half/);
  writeFileSync(join(dir, 'short.json'), '[1,2,3]');
  t.regex((await run(createLoginCommand(env(dir)), ['--keypair', 'short.json'], dir)).stderr, /not a Solana keypair file/);

  const down = await run(createLoginCommand({ PROOF_REGISTRY_SESSION: join(dir, 's.json') }), ['--keypair', 'wallet.json', '--url', 'http://127.0.0.1:9'], dir);
  t.regex(down.stderr, /cannot reach the service at http:\/\/127\.0\.0\.1:9 .*is it running\?/);
  t.is((await run(createLoginCommand(env(dir)), [], dir)).stderr, '--keypair is required (see --help)');
});

test.serial('submit sends a signed envelope with the key: stored, then already stored; a forged one exits 1 with the reason', async (t) => {
  const dir = tempDir(t);
  const wallet = keypairFile(dir, 66);
  await registry.fund(wallet.address, '50000');
  t.is((await run(createLoginCommand(env(dir)), ['--keypair', 'wallet.json'], dir)).code, 0);
  const { key } = JSON.parse((await run(createKeysCommand(env(dir)), ['create', 'robot', '--json'], dir)).stdout) as { key: string };
  const envelope = anEnvelope({ taskId: 'cli-submit', robotId: 'arm-9' });
  writeFileSync(join(dir, 'envelope.json'), JSON.stringify(envelope));
  writeFileSync(join(dir, 'forged.json'), JSON.stringify({ envelope: { ...envelope, signature_b64: 'A'.repeat(88) } }));
  const submit = createSubmitCommand({ ...env(dir), PROOF_REGISTRY_API_KEY: key });
  const first = await run(submit, ['envelope.json'], dir);
  t.is(first.code, 0, first.stderr);
  t.regex(first.stdout, /^Stored: proof [0-9a-f]{64} \(received /);
  t.regex((await run(submit, ['envelope.json'], dir)).stdout, /^Already stored: proof /);
  const forged = await run(submit, ['forged.json'], dir);
  t.is(forged.code, 1);
  t.regex(forged.stderr, /^proof-registry: refused: invalid proof: /);
  t.regex((await run(createSubmitCommand(env(dir)), ['envelope.json'], dir)).stderr, /--key is required/);
});
