import * as E from 'fp-ts/lib/Either.js';
import { isWalletAddress } from '../../domain/identity/wallet-address.js';
import type { OwnerLookups } from '../ports/owner-lookups.js';
import type { BalanceCache } from './balance-cache.js';
import { judge, type BalanceUnavailable } from './token-gate.js';

export type InvalidAddress = { readonly _tag: 'InvalidAddress'; readonly field: 'owner' | 'mint' };
export type TooManyOwners = { readonly _tag: 'TooManyOwners'; readonly perMinute: number; readonly retryAfterS: number };

export interface AccessAnswer {
  readonly allowed: boolean;
  readonly reason: string;
  readonly balance: number;
}

/**
 * Answers "does this owner hold at least `minimum` of this mint?" by the gate's own rule, for
 * the wallet `wallet` that asks. Its balances come through a cache of its own, not the gate's:
 * a flood of checks about new owners must not push the gate's admitted wallets out (and with
 * them their grace pass while the balance source is down).
 */
export class CheckAccess {
  constructor(
    private readonly balances: BalanceCache,
    private readonly owners: OwnerLookups,
  ) {}

  async execute(input: {
    wallet: string;
    owner: string;
    mint: string;
    minimum: number;
  }): Promise<E.Either<InvalidAddress | TooManyOwners | BalanceUnavailable, AccessAnswer>> {
    if (!isWalletAddress(input.owner)) return E.left({ _tag: 'InvalidAddress', field: 'owner' });
    if (!isWalletAddress(input.mint)) return E.left({ _tag: 'InvalidAddress', field: 'mint' });
    const wait = await this.owners.admit(input.wallet, input.owner);
    if (wait !== null) return E.left({ _tag: 'TooManyOwners', perMinute: this.owners.perMinute, retryAfterS: wait });
    const verdict = judge(await this.balances.lookup(input.owner, input.mint), input.minimum);
    return E.map(({ allowed, reason, balance }: AccessAnswer) => ({ allowed, reason, balance }))(verdict);
  }
}
