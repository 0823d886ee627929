import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import test from 'ava';
import { createLedgerCommand } from '../../../src/adapters/cli/ledger.js';
import { aWallet, MINT } from '../../support/identity.js';
import { startIdentityApp } from '../../support/identity-app.js';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');

/** The client script of README.md, exactly as a reader would copy it. */
async function docsScript(): Promise<string> {
  const doc = await readFile(path.join(repo, 'README.md'), 'utf8');
  const block = /```js\n(\/\/ sign-in\.mjs[\s\S]*?)```/.exec(doc)?.[1];
  if (!block) throw new Error('README.md has no sign-in.mjs block');
  return block;
}

test('the documented path works end to end: ledger set, then the docs script signs in and gets a working key', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-docs-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  const databaseUrl = `sqlite:${path.join(dir, 'registry.sqlite')}`;
  // The service with the balance source its configuration picks: the local ledger.
  const app = await startIdentityApp({ DATABASE_URL: databaseUrl }, { balances: 'config' });
  t.teardown(() => app.close());

  const wallet = aWallet(42);
  const keypair = path.join(dir, 'wallet.json');
  await writeFile(keypair, JSON.stringify([...wallet.secretKey]));

  // Before the operator grants tokens, the script fails at verify with the 403.
  const script = await docsScript();
  const env = { ...process.env, BASE_URL: app.url, KEYPAIR: keypair };
  const before = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repo, env }).catch((err: { stderr: string }) => err);
  t.regex((before as { stderr: string }).stderr, /\/v1\/auth\/wallet\/verify: 403 insufficient token balance/);

  let out = '';
  const code = await createLedgerCommand({ DATABASE_URL: databaseUrl, ACCESS_TOKEN_MINT: MINT }).run(['set', wallet.address, '50000'], {
    stdout: { write: (s: string) => (out += s) },
    stderr: { write: () => undefined },
    stdin: Readable.from([]),
    cwd: dir,
  });
  t.is(code, 0);
  t.is(out, `${wallet.address} 50000\n`);
  app.clock.advance(60_000); // the refusal above is cached for BALANCE_CACHE_TTL_S

  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: repo, env });
  const result = JSON.parse(stdout) as { wallet: string; key: string; key_id: string; access_token: string };
  t.is(result.wallet, wallet.address);
  const check = await app.call('POST', '/v1/access/check', { credential: result.key, wallet: wallet.address, body: { owner: wallet.address, mint: MINT, minimum: 50000 } });
  t.is(check.status, 200);
  t.deepEqual(check.body, { allowed: true, reason: 'balance 50000 meets the minimum of 50000', balance: 50000 });
  const keys = await app.call('GET', '/v1/keys', { credential: result.access_token, wallet: wallet.address });
  t.like(keys.body.items[0], { key_id: result.key_id, name: 'my first key', request_count: 1, error_count: 0 });
});
