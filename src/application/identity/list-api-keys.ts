import * as E from 'fp-ts/lib/Either.js';
import type { ApiKeyRecord, KeyStore } from '../ports/key-store.js';

/** The wallet's keys with their usage figures, brought up to date first. */
export class ListApiKeys {
  constructor(
    private readonly keys: KeyStore,
    private readonly pendingUsage: { flush(): Promise<void> },
  ) {}

  async execute(input: { wallet: string }): Promise<E.Either<never, ApiKeyRecord[]>> {
    await this.pendingUsage.flush();
    return E.right(await this.keys.listByWallet(input.wallet));
  }
}

/** error_count / request_count, to 4 decimals; 0 for an unused key. */
export const errorRate = (k: Pick<ApiKeyRecord, 'requestCount' | 'errorCount'>): number =>
  k.requestCount === 0 ? 0 : Math.round((k.errorCount / k.requestCount) * 10_000) / 10_000;
