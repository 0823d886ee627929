import * as E from 'fp-ts/lib/Either.js';
import { DAY_MS, floorTo } from '../../domain/stats/buckets.js';
import type { Clock } from '../ports/clock.js';
import type { KeyStore } from '../ports/key-store.js';
import type { KeyUsageHistory } from '../ports/usage-series.js';
import type { KeyNotFound } from './delete-api-key.js';

export interface KeyUsageDay {
  readonly dayMs: number;
  readonly requests: number;
  readonly errors: number;
}

/**
 * One API key's requests and errors per UTC day over the last `days` days (today included),
 * oldest first, every day present. Only the wallet's own keys: another wallet's key id is
 * answered as unknown, never as "not yours".
 */
export class GetKeyUsage {
  constructor(
    private readonly keys: Pick<KeyStore, 'listByWallet'>,
    private readonly history: Pick<KeyUsageHistory, 'days'>,
    private readonly pending: { flush(): Promise<void> },
    private readonly clock: Clock,
  ) {}

  async execute(input: { wallet: string; keyId: string; days: number }): Promise<E.Either<KeyNotFound, readonly KeyUsageDay[]>> {
    const owned = (await this.keys.listByWallet(input.wallet)).some((k) => k.keyId === input.keyId);
    if (!owned) return E.left({ _tag: 'KeyNotFound', keyId: input.keyId });
    await this.pending.flush();
    const today = floorTo(this.clock.nowMs(), 'day');
    const from = today - (input.days - 1) * DAY_MS;
    const rows = new Map((await this.history.days(input.keyId, from, today + DAY_MS)).map((r) => [r.dayMs, r]));
    return E.right(
      Array.from({ length: input.days }, (_, i) => {
        const dayMs = from + i * DAY_MS;
        const row = rows.get(dayMs);
        return { dayMs, requests: row?.requests ?? 0, errors: row?.errors ?? 0 };
      }),
    );
  }
}
