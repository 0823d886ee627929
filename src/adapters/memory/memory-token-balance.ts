import { BalanceSourceError, type BalanceSourceFailure, type LedgerEntry, type LocalLedger } from '../../application/ports/token-balance.js';
import { formatTokenAmount, parseTokenAmount, ZERO, type TokenAmount } from '../../domain/identity/token-amount.js';

/**
 * In-memory balances: the test fake of the TokenBalance port (and a LocalLedger, so it runs
 * the ledger contract too). Tests can make it fail, or hold answers until released, to drive
 * the cache's outage and concurrency paths.
 */
export class MemoryTokenBalance implements LocalLedger {
  private readonly entries = new Map<string, LedgerEntry>();
  /** How many times balanceOf was called. */
  calls = 0;
  private failure: BalanceSourceFailure | null = null;
  private held: Array<() => void> | null = null;

  /** Makes every lookup fail with this kind of error (null: answer again). */
  failWith(kind: BalanceSourceFailure | null): void {
    this.failure = kind;
  }

  /** Holds lookups until `release()`, so several can be in flight at once. */
  hold(): void {
    this.held ??= [];
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const go of waiting) go();
  }

  async balanceOf(owner: string, mint: string): Promise<TokenAmount> {
    this.calls++;
    if (this.held) await new Promise<void>((resolve) => this.held!.push(resolve));
    if (this.failure) throw new BalanceSourceError(this.failure, `memory balance source: ${this.failure}`);
    return this.entries.get(key(owner, mint))?.amount ?? ZERO;
  }

  async set(owner: string, mint: string, amount: TokenAmount, nowMs: number): Promise<void> {
    // Kept as the SQL ledger keeps it: the decimal text, without trailing zeros.
    this.entries.set(key(owner, mint), { owner, mint, amount: parseTokenAmount(formatTokenAmount(amount))!, updatedAtMs: nowMs });
  }

  async get(owner: string, mint: string): Promise<LedgerEntry | null> {
    return this.entries.get(key(owner, mint)) ?? null;
  }

  async list(mint: string): Promise<LedgerEntry[]> {
    return [...this.entries.values()].filter((e) => e.mint === mint).sort((a, b) => (a.owner < b.owner ? -1 : a.owner > b.owner ? 1 : 0));
  }
}

const key = (owner: string, mint: string) => `${mint}/${owner}`;
