import * as E from 'fp-ts/lib/Either.js';
import { formatTokenAmount, meetsMinimum, toUiAmount } from '../../domain/identity/token-amount.js';
import type { IdentityMetrics } from '../ports/identity-metrics.js';
import type { BalanceCache, BalanceLookup } from './balance-cache.js';

export type InsufficientBalance = { readonly _tag: 'InsufficientBalance'; readonly required: number; readonly balance: number };
export type BalanceUnavailable = { readonly _tag: 'BalanceUnavailable'; readonly retryAfterS: number };
export type GateFailure = InsufficientBalance | BalanceUnavailable;

export interface Verdict {
  readonly allowed: boolean;
  readonly balance: number;
  readonly reason: string;
  /** True when the source is down and a recent passing answer was used. */
  readonly grace: boolean;
}

/**
 * The access rule: a wallet holding at least `minimum` whole tokens passes. While the source
 * is down a recent *pass* is honoured for the grace period; nothing else is assumed, so an
 * outage never admits a wallet that was not already admitted (no fail-open).
 */
export function judge(lookup: BalanceLookup, minimum: number): E.Either<BalanceUnavailable, Verdict> {
  if (lookup._tag === 'Unavailable') return E.left({ _tag: 'BalanceUnavailable', retryAfterS: lookup.retryAfterS });
  const balance = toUiAmount(lookup.amount);
  const text = formatTokenAmount(lookup.amount);
  const meets = meetsMinimum(lookup.amount, minimum);
  if (lookup._tag === 'Stale') {
    if (!meets) return E.left({ _tag: 'BalanceUnavailable', retryAfterS: 5 });
    return E.right({
      allowed: true,
      balance,
      grace: true,
      reason: `the balance source is unavailable; the last known balance ${text} (${lookup.ageS} s old) meets the minimum of ${minimum}`,
    });
  }
  return E.right({
    allowed: meets,
    balance,
    grace: false,
    reason: meets ? `balance ${text} meets the minimum of ${minimum}` : `balance ${text} is below the minimum of ${minimum}`,
  });
}

/** The token gate every authenticated request and every sign-in passes through. */
export class TokenGate {
  constructor(
    private readonly balances: BalanceCache,
    private readonly policy: { readonly mint: string; readonly minimum: number },
    private readonly metrics: Pick<IdentityMetrics, 'gateDecision'>,
  ) {}

  async admit(wallet: string): Promise<E.Either<GateFailure, Verdict>> {
    const verdict = judge(await this.balances.lookup(wallet, this.policy.mint), this.policy.minimum);
    if (E.isLeft(verdict)) {
      this.metrics.gateDecision('unavailable');
      return verdict;
    }
    if (!verdict.right.allowed) {
      this.metrics.gateDecision('denied');
      return E.left({ _tag: 'InsufficientBalance', required: this.policy.minimum, balance: verdict.right.balance });
    }
    this.metrics.gateDecision(verdict.right.grace ? 'grace' : 'allowed');
    return E.right(verdict.right);
  }
}
