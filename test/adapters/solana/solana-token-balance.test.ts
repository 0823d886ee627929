import test from 'ava';
import { BalanceSourceError, type BalanceSourceFailure } from '../../../src/application/ports/token-balance.js';
import { SolanaTokenBalance } from '../../../src/adapters/solana/solana-token-balance.js';
import { formatTokenAmount, parseTokenAmount } from '../../../src/domain/identity/token-amount.js';
import { tokenBalanceContract } from '../../contracts/token-balance.contract.js';
import { FakeSolanaRpc } from '../../support/fake-solana-rpc.js';
import { MINT, OTHER_MINT } from '../../support/identity.js';
import { WALLET_A, WALLET_B } from '../../support/mothers.js';

// The real @solana/web3.js client against a wire-level fake node on an ephemeral port.
const fakes: FakeSolanaRpc[] = [];
test.after.always(async () => Promise.all(fakes.map((f) => f.close())));

async function fixture(timeoutMs = 2_000) {
  const rpc = await FakeSolanaRpc.start();
  fakes.push(rpc);
  const observed: Array<{ method: string; outcome: string }> = [];
  const balance = new SolanaTokenBalance({ rpcUrl: rpc.url, timeoutMs, observer: { observe: (method, outcome) => observed.push({ method, outcome }) } });
  return { rpc, balance, observed };
}

/** Whole tokens at 6 decimals, as base units. */
const units = (text: string, decimals = 6) => {
  const a = parseTokenAmount(text)!;
  return a.raw * 10n ** BigInt(decimals - a.decimals);
};

tokenBalanceContract('solana rpc', async (holdings) => {
  const { rpc, balance } = await fixture();
  for (const h of holdings) rpc.add({ owner: h.owner, mint: h.mint, amount: units(h.amount), decimals: 6 });
  return { balance, down: () => (rpc.mode = 'http_500') };
});

test('asks getTokenAccountsByOwner for the mint, jsonParsed, at confirmed commitment', async (t) => {
  const { rpc, balance, observed } = await fixture();
  await balance.balanceOf(WALLET_A, MINT);
  t.deepEqual(rpc.requests, [{ method: 'getTokenAccountsByOwner', params: [WALLET_A, { mint: MINT }, { encoding: 'jsonParsed', commitment: 'confirmed' }] }]);
  t.deepEqual(observed, [{ method: 'getTokenAccountsByOwner', outcome: 'ok' }]);
});

test('sums every token account of the mint exactly, Token-2022 and frozen accounts included', async (t) => {
  const { rpc, balance } = await fixture();
  rpc.add({ owner: WALLET_A, mint: MINT, amount: 49_999_999_999n, decimals: 6 });
  rpc.add({ owner: WALLET_A, mint: MINT, amount: 1n, decimals: 6, program: 'spl-token-2022' });
  rpc.add({ owner: WALLET_A, mint: MINT, amount: 0n, decimals: 6, state: 'frozen' });
  rpc.add({ owner: WALLET_A, mint: OTHER_MINT, amount: 10n ** 12n, decimals: 6 });
  rpc.add({ owner: WALLET_B, mint: MINT, amount: 10n ** 12n, decimals: 6 });
  t.is(formatTokenAmount(await balance.balanceOf(WALLET_A, MINT)), '50000');
});

test('a balance of 2^64 − 1 base units keeps every digit', async (t) => {
  const { rpc, balance } = await fixture();
  rpc.add({ owner: WALLET_A, mint: MINT, amount: 18_446_744_073_709_551_615n, decimals: 9 });
  t.is(formatTokenAmount(await balance.balanceOf(WALLET_A, MINT)), '18446744073.709551615');
});

const failures: Array<[FakeSolanaRpc['mode'], BalanceSourceFailure]> = [
  ['http_500', 'http_error'],
  ['http_429', 'http_error'],
  ['rpc_error', 'rpc_error'],
  ['garbage', 'invalid_response'],
  ['wrong_owner', 'invalid_response'],
  ['bad_amount', 'invalid_response'],
];
for (const [mode, kind] of failures) {
  test(`answer mode ${mode} is a BalanceSourceError of kind ${kind}, never a balance`, async (t) => {
    const { rpc, balance, observed } = await fixture();
    rpc.add({ owner: WALLET_A, mint: MINT, amount: units('60000'), decimals: 6 });
    rpc.mode = mode;
    const err = await t.throwsAsync(balance.balanceOf(WALLET_A, MINT), { instanceOf: BalanceSourceError });
    t.is(err?.kind, kind);
    t.deepEqual(
      observed.map((o) => o.outcome),
      [kind],
    );
    // A 429 is not retried: the cache's grace period, not a retry loop, covers a busy node.
    t.is(rpc.requests.length, 1);
  });
}

test('a slow node is cut off at the timeout', async (t) => {
  const { rpc, balance } = await fixture(200);
  rpc.mode = 'slow';
  rpc.slowMs = 10_000;
  const err = await t.throwsAsync(balance.balanceOf(WALLET_A, MINT), { instanceOf: BalanceSourceError });
  t.is(err?.kind, 'timeout');
});

test('an unreachable node is an unreachable error', async (t) => {
  const { rpc } = await fixture();
  const url = rpc.url;
  await rpc.close();
  fakes.splice(fakes.indexOf(rpc), 1);
  const balance = new SolanaTokenBalance({ rpcUrl: url, timeoutMs: 2_000 });
  const err = await t.throwsAsync(balance.balanceOf(WALLET_A, MINT), { instanceOf: BalanceSourceError });
  t.is(err?.kind, 'unreachable');
});
