import test from 'ava';
import type { LocalLedger } from '../../src/application/ports/token-balance.js';
import { formatTokenAmount } from '../../src/domain/identity/token-amount.js';
import type { DeclareTest } from '../support/databases.js';
import { amount, MINT, OTHER_MINT } from '../support/identity.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';

/** The LocalLedger contract (the operator-edited balances); `make` returns an empty ledger. */
export function localLedgerContract(name: string, make: () => Promise<LocalLedger>, testFn: DeclareTest = test): void {
  testFn(`${name}: a wallet never set holds zero`, async (t) => {
    const ledger = await make();
    t.is(formatTokenAmount(await ledger.balanceOf(WALLET_A, MINT)), '0');
    t.is(await ledger.get(WALLET_A, MINT), null);
  });

  testFn(`${name}: set, then read back exactly, decimals included`, async (t) => {
    const ledger = await make();
    await ledger.set(WALLET_A, MINT, amount('50000'), 1_000);
    await ledger.set(WALLET_B, MINT, amount('12.50'), 2_000);
    t.is(formatTokenAmount(await ledger.balanceOf(WALLET_A, MINT)), '50000');
    t.is(formatTokenAmount(await ledger.balanceOf(WALLET_B, MINT)), '12.5');
    t.deepEqual(await ledger.get(WALLET_B, MINT), { owner: WALLET_B, mint: MINT, amount: { raw: 125n, decimals: 1 }, updatedAtMs: 2_000 });
  });

  testFn(`${name}: set overwrites; balances are per mint`, async (t) => {
    const ledger = await make();
    await ledger.set(WALLET_A, MINT, amount('50000'), 1_000);
    await ledger.set(WALLET_A, MINT, amount('49999'), 2_000);
    await ledger.set(WALLET_A, OTHER_MINT, amount('7'), 3_000);
    t.is(formatTokenAmount(await ledger.balanceOf(WALLET_A, MINT)), '49999');
    t.is((await ledger.get(WALLET_A, MINT))?.updatedAtMs, 2_000);
    t.is(formatTokenAmount(await ledger.balanceOf(WALLET_A, OTHER_MINT)), '7');
  });

  testFn(`${name}: list gives one mint's entries ordered by wallet`, async (t) => {
    const ledger = await make();
    await ledger.set(WALLET_B, MINT, amount('2'), 1);
    await ledger.set(WALLET_A, MINT, amount('1'), 2);
    await ledger.set(WALLET_A, OTHER_MINT, amount('3'), 3);
    const listed = await ledger.list(MINT);
    t.deepEqual(
      listed.map((e) => [e.owner, formatTokenAmount(e.amount)]),
      [
        [WALLET_A, '1'],
        [WALLET_B, '2'],
      ],
    );
    t.deepEqual(await ledger.list('NoSuchMint111111111111111111111111111111111'), []);
  });

  testFn(`${name}: a very large balance keeps every digit`, async (t) => {
    const ledger = await make();
    await ledger.set(WALLET_A, MINT, amount('123456789012345678901234567.123456789'), 1);
    t.is(formatTokenAmount(await ledger.balanceOf(WALLET_A, MINT)), '123456789012345678901234567.123456789');
  });
}
