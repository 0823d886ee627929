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

/** One endpoint's share of a key's usage over the window: its totals and its days. */
export interface KeyEndpointUsage {
  /** The method and route template, e.g. `POST /v1/proofs`. */
  readonly endpoint: string;
  readonly requests: number;
  readonly errors: number;
  readonly days: readonly KeyUsageDay[];
}

export interface KeyUsage {
  readonly days: readonly KeyUsageDay[];
  /** Every endpoint the key called in the window, most requests first. */
  readonly endpoints: readonly KeyEndpointUsage[];
}

/**
 * One API key's requests and errors per UTC day over the last `days` days (today included),
 * oldest first, every day present, in total and per endpoint. Only the wallet's own keys:
 * another wallet's key id is answered as unknown, never as "not yours".
 */
export class GetKeyUsage {
  constructor(
    private readonly keys: Pick<KeyStore, 'listByWallet'>,
    private readonly history: Pick<KeyUsageHistory, 'days' | 'endpointDays'>,
    private readonly pending: { flush(): Promise<unknown> },
    private readonly clock: Clock,
  ) {}

  async execute(input: { wallet: string; keyId: string; days: number }): Promise<E.Either<KeyNotFound, KeyUsage>> {
    const owned = (await this.keys.listByWallet(input.wallet)).some((k) => k.keyId === input.keyId);
    if (!owned) return E.left({ _tag: 'KeyNotFound', keyId: input.keyId });
    await this.pending.flush();
    const today = floorTo(this.clock.nowMs(), 'day');
    const from = today - (input.days - 1) * DAY_MS;
    const [totals, perEndpoint] = await Promise.all([
      this.history.days(input.keyId, from, today + DAY_MS),
      this.history.endpointDays(input.keyId, from, today + DAY_MS),
    ]);
    const everyDay = (rows: ReadonlyArray<KeyUsageDay>): KeyUsageDay[] => {
      const byDay = new Map(rows.map((r) => [r.dayMs, r]));
      return Array.from({ length: input.days }, (_, i) => {
        const dayMs = from + i * DAY_MS;
        const row = byDay.get(dayMs);
        return { dayMs, requests: row?.requests ?? 0, errors: row?.errors ?? 0 };
      });
    };
    const grouped = new Map<string, KeyUsageDay[]>();
    for (const r of perEndpoint) grouped.set(r.endpoint, [...(grouped.get(r.endpoint) ?? []), r]);
    const endpoints = [...grouped].map(([endpoint, rows]) => ({
      endpoint,
      requests: rows.reduce((n, r) => n + r.requests, 0),
      errors: rows.reduce((n, r) => n + r.errors, 0),
      days: everyDay(rows),
    }));
    endpoints.sort((a, b) => b.requests - a.requests || (a.endpoint < b.endpoint ? -1 : 1));
    return E.right({ days: everyDay(totals), endpoints });
  }
}
