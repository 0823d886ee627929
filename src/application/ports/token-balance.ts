import type { TokenAmount } from '../../domain/identity/token-amount.js';

/** Where balances of the access token come from: Solana, the local ledger, or a test fake. */
export interface TokenBalance {
  /**
   * The owner's balance of the mint, summed over all its token accounts; zero when it has none.
   * Throws BalanceSourceError when the source cannot answer: an unknown is never a zero.
   */
  balanceOf(owner: string, mint: string): Promise<TokenAmount>;
}

export type BalanceSourceFailure = 'timeout' | 'unreachable' | 'http_error' | 'rpc_error' | 'invalid_response';

/** The balance source did not give a trustworthy answer. */
export class BalanceSourceError extends Error {
  constructor(
    readonly kind: BalanceSourceFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'BalanceSourceError';
  }
}

/** The local ledger: balances an operator sets by hand when there is no Solana RPC. */
export interface LocalLedger extends TokenBalance {
  set(owner: string, mint: string, amount: TokenAmount, nowMs: number): Promise<void>;
  /** The recorded amount, or null when none was ever set (balanceOf then answers zero). */
  get(owner: string, mint: string): Promise<LedgerEntry | null>;
  /** Every entry of the mint, by owner. */
  list(mint: string): Promise<LedgerEntry[]>;
}

export interface LedgerEntry {
  readonly owner: string;
  readonly mint: string;
  readonly amount: TokenAmount;
  readonly updatedAtMs: number;
}
