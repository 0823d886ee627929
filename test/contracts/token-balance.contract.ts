import test from 'ava';
import { BalanceSourceError, type TokenBalance } from '../../src/application/ports/token-balance.js';
import { formatTokenAmount } from '../../src/domain/identity/token-amount.js';
import type { DeclareTest } from '../support/databases.js';
import { MINT, OTHER_MINT } from '../support/identity.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';

export interface Holding {
  readonly owner: string;
  readonly mint: string;
  /** Whole tokens, e.g. "50000" or "12.5". */
  readonly amount: string;
}

export interface BalanceFixture {
  readonly balance: TokenBalance;
  /** Makes the source stop answering. */
  down(): void;
}

/** The TokenBalance contract: every source answers the same for the same holdings. */
export function tokenBalanceContract(name: string, make: (holdings: readonly Holding[]) => Promise<BalanceFixture>, testFn: DeclareTest = test): void {
  testFn(`${name}: an owner with no account of the mint holds zero`, async (t) => {
    const { balance } = await make([{ owner: WALLET_A, mint: OTHER_MINT, amount: '5' }]);
    t.is(formatTokenAmount(await balance.balanceOf(WALLET_A, MINT)), '0');
    t.is(formatTokenAmount(await balance.balanceOf(WALLET_B, MINT)), '0');
  });

  testFn(`${name}: balances are exact, per owner and per mint`, async (t) => {
    const { balance } = await make([
      { owner: WALLET_A, mint: MINT, amount: '50000' },
      { owner: WALLET_B, mint: MINT, amount: '49999.5' },
      { owner: WALLET_A, mint: OTHER_MINT, amount: '1' },
    ]);
    t.is(formatTokenAmount(await balance.balanceOf(WALLET_A, MINT)), '50000');
    t.is(formatTokenAmount(await balance.balanceOf(WALLET_B, MINT)), '49999.5');
    t.is(formatTokenAmount(await balance.balanceOf(WALLET_A, OTHER_MINT)), '1');
  });

  testFn(`${name}: a source that is down throws BalanceSourceError, never answers zero`, async (t) => {
    const fixture = await make([{ owner: WALLET_A, mint: MINT, amount: '50000' }]);
    fixture.down();
    await t.throwsAsync(fixture.balance.balanceOf(WALLET_A, MINT), { instanceOf: BalanceSourceError });
  });
}
