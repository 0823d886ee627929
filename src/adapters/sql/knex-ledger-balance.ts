import type { Knex } from 'knex';
import { BalanceSourceError, type LedgerEntry, type LocalLedger } from '../../application/ports/token-balance.js';
import { formatTokenAmount, parseTokenAmount, ZERO, type TokenAmount } from '../../domain/identity/token-amount.js';
import type { Database } from './database.js';

interface LedgerRow {
  readonly wallet: string;
  readonly mint: string;
  readonly amount: string;
  readonly updated_at_ms: number | string;
}

/**
 * The local ledger: access-token balances in the `ledger_balances` table, set by an operator
 * with `proof-registry ledger set`. The balance source when SOLANA_RPC_URL is unset.
 */
export class KnexLedgerBalance implements LocalLedger {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async balanceOf(owner: string, mint: string): Promise<TokenAmount> {
    let row: LedgerRow | undefined;
    try {
      row = await this.knex<LedgerRow>('ledger_balances').where({ mint, wallet: owner }).first();
    } catch (err) {
      // The port's promise: a source that cannot answer says so, and the cache decides.
      throw new BalanceSourceError('unreachable', `local ledger: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
    }
    return row ? toEntry(row).amount : ZERO;
  }

  async set(owner: string, mint: string, amount: TokenAmount, nowMs: number): Promise<void> {
    await this.knex('ledger_balances')
      .insert({ wallet: owner, mint, amount: formatTokenAmount(amount), updated_at_ms: nowMs })
      .onConflict(['mint', 'wallet'])
      .merge(['amount', 'updated_at_ms']);
  }

  async get(owner: string, mint: string): Promise<LedgerEntry | null> {
    const row = await this.knex<LedgerRow>('ledger_balances').where({ mint, wallet: owner }).first();
    return row ? toEntry(row) : null;
  }

  async list(mint: string): Promise<LedgerEntry[]> {
    const rows = await this.knex<LedgerRow>('ledger_balances')
      .where({ mint })
      .orderByRaw(this.knex.client.dialect === 'postgresql' ? 'wallet collate "C"' : 'wallet');
    return rows.map(toEntry);
  }
}

function toEntry(r: LedgerRow): LedgerEntry {
  const amount = parseTokenAmount(r.amount);
  // A hand-edited row that is not a decimal must not read as zero or as anything else.
  if (amount === null) throw new BalanceSourceError('invalid_response', `ledger_balances holds a non-decimal amount for ${r.wallet}`);
  return { owner: r.wallet, mint: r.mint, amount, updatedAtMs: Number(r.updated_at_ms) };
}
