import type { KeyStore } from '../ports/key-store.js';
import type { KeyUsageTotals } from './get-wallet-stats.js';

/**
 * Key usage summed over the wallet's keys as the KeyStore holds them. Counts still pending in
 * the identity module's usage recorder (not yet flushed) are not included, and a deleted key
 * takes its counts with it.
 */
export class KeyStoreUsageTotals implements KeyUsageTotals {
  constructor(private readonly keys: Pick<KeyStore, 'listByWallet'>) {}

  async totals(wallet: string): Promise<{ requests: number; errors: number }> {
    const keys = await this.keys.listByWallet(wallet);
    return keys.reduce((sum, k) => ({ requests: sum.requests + k.requestCount, errors: sum.errors + k.errorCount }), { requests: 0, errors: 0 });
  }
}
