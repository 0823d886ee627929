import path from 'node:path';
import { Readable } from 'node:stream';
import test from 'ava';
import { createLedgerCommand } from '../../../src/adapters/cli/ledger.js';
import { KnexLedgerBalance } from '../../../src/adapters/sql/knex-ledger-balance.js';
import { openDatabase } from '../../../src/adapters/sql/index.js';
import { LOCAL_ACCESS_MINT } from '../../../src/config.js';
import { formatTokenAmount } from '../../../src/domain/identity/token-amount.js';
import { MINT } from '../../support/identity.js';
import { WALLET_A, WALLET_B } from '../../support/mothers.js';
import { cli, tempDir } from './harness.js';

/** Runs `ledger <args>` in `cwd` with the given environment. */
async function ledger(args: string[], cwd: string, env: Record<string, string> = {}) {
  let stdout = '';
  let stderr = '';
  const code = await createLedgerCommand({ DATABASE_URL: 'sqlite:registry.sqlite', ...env })
    .run(args, { stdout: { write: (s: string) => (stdout += s) }, stderr: { write: (s: string) => (stderr += s) }, stdin: Readable.from([]), cwd })
    .catch((err: Error) => {
      stderr += err.message;
      return 2;
    });
  return { code, stdout, stderr };
}

test('set, get and list balances in the database the service reads', async (t) => {
  const dir = tempDir(t);
  t.deepEqual(await ledger(['set', WALLET_A, '50000'], dir), { code: 0, stdout: `${WALLET_A} 50000\n`, stderr: '' });
  t.is((await ledger(['set', WALLET_B, '12.50'], dir)).stdout, `${WALLET_B} 12.5\n`);
  t.is((await ledger(['get', WALLET_A], dir)).stdout, `${WALLET_A} 50000\n`);
  t.is((await ledger(['get', WALLET_B.replace('9', '8')], dir)).stdout.split(' ')[1], '0\n');
  const listed = (await ledger(['list'], dir)).stdout.trim().split('\n');
  t.deepEqual(
    listed.map((l) => l.split(' ').slice(0, 2).join(' ')),
    [`${WALLET_A} 50000`, `${WALLET_B} 12.5`],
  );
  const json = JSON.parse((await ledger(['get', WALLET_A, '--json'], dir)).stdout) as Record<string, unknown>;
  t.like(json, { wallet: WALLET_A, mint: LOCAL_ACCESS_MINT, amount: '50000' });

  // The relative sqlite path resolved against the command's directory: the service sees it there.
  const db = await openDatabase(`sqlite:${path.join(dir, 'registry.sqlite')}`);
  t.teardown(() => db.close());
  t.is(formatTokenAmount(await new KnexLedgerBalance(db).balanceOf(WALLET_A, LOCAL_ACCESS_MINT)), '50000');
});

test('the mint comes from --mint, else ACCESS_TOKEN_MINT, else the local placeholder', async (t) => {
  const dir = tempDir(t);
  await ledger(['set', WALLET_A, '1', '--mint', MINT], dir);
  await ledger(['set', WALLET_A, '2'], dir, { ACCESS_TOKEN_MINT: MINT });
  await ledger(['set', WALLET_A, '3'], dir);
  t.is((await ledger(['get', WALLET_A, '--mint', MINT], dir)).stdout, `${WALLET_A} 2\n`);
  t.is((await ledger(['get', WALLET_A], dir)).stdout, `${WALLET_A} 3\n`);
});

const refused: Array<[string, string[], RegExp]> = [
  ['a bad wallet', ['set', 'not-a-wallet', '5'], /wallet must be a base58 Solana address/],
  ['a negative amount', ['set', WALLET_A, '--', '-5'], /amount must be a non-negative decimal/],
  ['an amount in exponent form', ['set', WALLET_A, '5e4'], /amount must be a non-negative decimal/],
  ['a missing amount', ['set', WALLET_A], /takes 2 arguments/],
  ['an unknown subcommand', ['drop', WALLET_A], /unknown ledger subcommand/],
  ['a bad mint', ['list', '--mint', 'xyz'], /--mint must be a base58 Solana address/],
];
for (const [name, args, message] of refused) {
  test(`ledger refuses ${name} with exit code 2`, async (t) => {
    const r = await ledger(args, tempDir(t));
    t.is(r.code, 2);
    t.regex(r.stderr, message);
  });
}

test('proof-registry lists ledger among its commands and routes to it', async (t) => {
  const dir = tempDir(t);
  const help = await cli(['--help'], dir);
  t.regex(help.stdout, /ledger\s+set, get or list access-token balances/);
  const usage = await cli(['ledger', '--help'], dir);
  t.is(usage.code, 0);
  t.regex(usage.stdout, /proof-registry ledger set <wallet> <amount>/);
  const bad = await cli(['ledger', 'set', 'nope', '1'], dir);
  t.is(bad.code, 2);
  t.regex(bad.stderr, /^proof-registry: wallet must be/);
});
