import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import type { Command } from '../../../src/adapters/cli/command.js';
import { createKeysCommand } from '../../../src/adapters/cli/keys.js';
import { createLedgerCommand } from '../../../src/adapters/cli/ledger.js';
import { createLoginCommand } from '../../../src/adapters/cli/login.js';
import { aWallet, MINT } from '../../support/identity.js';
import { startIdentityApp } from '../../support/identity-app.js';

const repo = path.resolve(import.meta.dirname, '../../..');

/** The documented commands, as a reader copies them (README.md, or docs/ where the README points). */
const DOCUMENTED = ['node bin/proof-registry.js login --keypair wallet.json', 'node bin/proof-registry.js keys create "my first key"'];

async function documents(): Promise<string> {
  const texts = await Promise.all(['README.md', 'docs/dashboard.md'].map((f) => readFile(path.join(repo, f), 'utf8').catch(() => '')));
  return texts.join('\n');
}

async function run(command: Command, args: string[], cwd: string) {
  let stdout = '';
  let stderr = '';
  const code = await command
    .run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: Readable.from([]), cwd })
    .catch((err: Error) => ((stderr += err.message), 2));
  return { code, stdout, stderr };
}

test('the documented path works end to end: ledger set, then login and keys create get a working key', async (t) => {
  const doc = await documents();
  for (const line of DOCUMENTED) t.true(doc.includes(`$ ${line}`), `the documents show: ${line}`);

  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-docs-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const databaseUrl = `sqlite:${path.join(dir, 'registry.sqlite')}`;
  // The service with the balance source its configuration picks: the local ledger.
  const app = await startIdentityApp({ DATABASE_URL: databaseUrl }, { balances: 'config' });
  t.teardown(() => app.close());
  const env = { PROOF_REGISTRY_URL: app.url, PROOF_REGISTRY_SESSION: path.join(dir, 'session.json') };

  const wallet = aWallet(42);
  await writeFile(path.join(dir, 'wallet.json'), JSON.stringify([...wallet.secretKey]));

  // Before the operator grants tokens, login fails with the 403.
  const before = await run(createLoginCommand(env), ['--keypair', 'wallet.json'], dir);
  t.is(before.code, 2);
  t.regex(before.stderr, /\/v1\/auth\/wallet\/verify: 403 insufficient token balance/);

  const set = await run(createLedgerCommand({ DATABASE_URL: databaseUrl, ACCESS_TOKEN_MINT: MINT }), ['set', wallet.address, '50000'], dir);
  t.deepEqual(set, { code: 0, stdout: `${wallet.address} 50000\n`, stderr: '' });
  // No wait: on the local ledger the refusal above is not cached.

  t.is((await run(createLoginCommand(env), ['--keypair', 'wallet.json'], dir)).code, 0);
  const created = await run(createKeysCommand(env), ['create', 'my first key', '--json'], dir);
  const result = JSON.parse(created.stdout) as { key: string; key_id: string };
  const check = await app.call('POST', '/v1/access/check', {
    credential: result.key,
    wallet: wallet.address,
    body: { owner: wallet.address, mint: MINT, minimum: 50000 },
  });
  t.is(check.status, 200);
  t.deepEqual(check.body, { allowed: true, reason: 'balance 50000 meets the minimum of 50000', balance: 50000 });
  const keys = JSON.parse((await run(createKeysCommand(env), ['list', '--json'], dir)).stdout) as Array<{
    key_id: string;
    name: string;
    request_count: number;
    error_count: number;
  }>;
  t.like(keys[0], { key_id: result.key_id, name: 'my first key', request_count: 1, error_count: 0 });
});
