import type { Knex } from 'knex';

/** Wallet rows as a lookup returns them; pg answers a bigint as a string. */
export type WalletRow = { readonly id: number | string; readonly address: string };

/**
 * Creates the `wallets` rows of any of `addresses` not yet there, then answers the rows of all
 * of them. Two statements, not one: under PostgreSQL a concurrent first write of the same
 * wallet makes the insert wait for that transaction and skip the address, and only a new
 * statement's snapshot then sees the row that won.
 */
export type WalletLookup = (addresses: readonly string[]) => Promise<readonly WalletRow[]>;

/** Most addresses remembered; past that the memory starts again (a wallet costs one lookup more). */
const REMEMBERED = 100_000;

/**
 * The integer key of each wallet (migrations/004_wallet_keys.ts), for the writers: a proof's
 * row and topics carry its wallet's key, which its indexes lead with. A key is never changed
 * nor reused (`wallets` rows are never deleted), so once known it is remembered, and a batch
 * of wallets already seen needs no database work at all.
 */
export class WalletKeys {
  private readonly known = new Map<string, number>();

  constructor(private readonly lookup: WalletLookup) {}

  /** The keys of `addresses`, creating those of new wallets. */
  async of(addresses: Iterable<string>): Promise<ReadonlyMap<string, number>> {
    const keys = new Map<string, number>();
    const missing: string[] = [];
    for (const address of addresses) {
      const key = this.known.get(address);
      if (key !== undefined) keys.set(address, key);
      else if (!missing.includes(address)) missing.push(address);
    }
    if (missing.length > 0) {
      if (this.known.size + missing.length > REMEMBERED) this.known.clear();
      for (const row of await this.lookup(missing)) {
        const key = Number(row.id);
        this.known.set(row.address, key);
        keys.set(row.address, key);
      }
    }
    return keys;
  }

  /** The key of an address `of` has answered (throws otherwise: a writer bug, not bad input). */
  static get(keys: ReadonlyMap<string, number>, address: string): number {
    const key = keys.get(address);
    if (key === undefined) throw new Error('no wallet key was resolved for a proof of the batch');
    return key;
  }
}

/** Rows of addresses per statement: well under SQLite's 32,766 variables. */
const ADDRESSES_PER_STATEMENT = 500;

/** WalletLookup through Knex (either dialect). */
export function knexWalletLookup(knex: Knex | Knex.Transaction): WalletLookup {
  return async (addresses) => {
    const rows: WalletRow[] = [];
    for (let i = 0; i < addresses.length; i += ADDRESSES_PER_STATEMENT) {
      const chunk = addresses.slice(i, i + ADDRESSES_PER_STATEMENT);
      await knex('wallets')
        .insert(chunk.map((address) => ({ address })))
        .onConflict('address')
        .ignore();
      rows.push(...(await knex<WalletRow>('wallets').select('id', 'address').whereIn('address', chunk)));
    }
    return rows;
  };
}

/** The key of `wallet` as a subquery, for reads: no row (so nothing matches) for a wallet that never stored a proof. */
export function walletKeyOf(knex: Knex, wallet: string): Knex.QueryBuilder {
  return knex('wallets').select('id').where('address', wallet);
}
