import * as E from 'fp-ts/lib/Either.js';
import { isWalletAddress } from '../../domain/identity/wallet-address.js';
import type { BalanceCache } from './balance-cache.js';
import { judge, type BalanceUnavailable } from './token-gate.js';

export type InvalidAddress = { readonly _tag: 'InvalidAddress'; readonly field: 'owner' | 'mint' };

export interface AccessAnswer {
  readonly allowed: boolean;
  readonly reason: string;
  readonly balance: number;
}

/** Answers "does this owner hold at least `minimum` of this mint?" by the gate's own rule. */
export class CheckAccess {
  constructor(private readonly balances: BalanceCache) {}

  async execute(input: { owner: string; mint: string; minimum: number }): Promise<E.Either<InvalidAddress | BalanceUnavailable, AccessAnswer>> {
    if (!isWalletAddress(input.owner)) return E.left({ _tag: 'InvalidAddress', field: 'owner' });
    if (!isWalletAddress(input.mint)) return E.left({ _tag: 'InvalidAddress', field: 'mint' });
    const verdict = judge(await this.balances.lookup(input.owner, input.mint), input.minimum);
    return E.map(({ allowed, reason, balance }: AccessAnswer) => ({ allowed, reason, balance }))(verdict);
  }
}
