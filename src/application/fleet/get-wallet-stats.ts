import * as E from 'fp-ts/lib/Either.js';
import { countByStatus, cutoffsAt, type StatusCounts, type StatusWindows } from '../../domain/fleet/device-status.js';
import { scoreProof } from '../../domain/scoring/score-proof.js';
import { DEFAULT_POLICY, policyId } from '../../domain/scoring/scoring-policy.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceStore } from '../ports/device-store.js';
import type { GroupStore } from '../ports/group-store.js';
import type { ProofActivityReader } from '../ports/proof-activity.js';
import type { NotYourWallet } from './fleet-errors.js';

/**
 * API-key usage of a wallet, summed over its keys (deleted keys included when the key store
 * keeps them). Provided by the identity module; the statistics need only the two totals.
 */
export interface KeyUsageTotals {
  totals(wallet: string): Promise<{ readonly requests: number; readonly errors: number }>;
}

/** Proofs scored for the average: the latest ones, so the work per request is bounded. */
export const SCORE_SAMPLE = 100;

const DAY_MS = 86_400_000;

export interface WalletStats {
  readonly wallet: string;
  readonly generatedAtMs: number;
  readonly proofs: {
    readonly total: number;
    readonly last24h: number;
    readonly last7d: number;
    readonly firstAtMs: number | null;
    readonly lastAtMs: number | null;
  };
  readonly devices: { readonly total: number; readonly byStatus: StatusCounts };
  readonly groupCount: number;
  readonly score: {
    readonly average: number | null;
    readonly min: number | null;
    readonly max: number | null;
    readonly sampleSize: number;
    readonly sampleLimit: number;
    readonly policy: string;
  };
  readonly apiKeys: { readonly requests: number; readonly errors: number; readonly errorRate: number | null };
}

/**
 * A wallet's own statistics. Asking for another wallet's is refused outright (not answered
 * with zeros): whether a wallet uses the registry is itself information about it.
 */
export class GetWalletStats {
  constructor(
    private readonly devices: DeviceStore,
    private readonly groups: GroupStore,
    private readonly proofs: ProofActivityReader,
    private readonly keyUsage: KeyUsageTotals,
    private readonly clock: Clock,
    private readonly windows: StatusWindows,
  ) {}

  async execute(input: { caller: string; wallet: string }): Promise<E.Either<NotYourWallet, WalletStats>> {
    if (input.caller !== input.wallet) return E.left({ _tag: 'NotYourWallet', wallet: input.wallet });
    const wallet = input.wallet;
    const nowMs = this.clock.nowMs();
    const [activity, buckets, groupCount, envelopes, usage] = await Promise.all([
      this.proofs.activity(wallet, [nowMs - DAY_MS, nowMs - 7 * DAY_MS], nowMs),
      this.devices.deviceBuckets(wallet, cutoffsAt(nowMs, this.windows)),
      this.groups.countGroups(wallet),
      this.proofs.recentEnvelopes(wallet, SCORE_SAMPLE),
      this.keyUsage.totals(wallet),
    ]);
    const scores = envelopes.map((envelope) => scoreProof(envelope, nowMs, DEFAULT_POLICY).score);
    return E.right({
      wallet,
      generatedAtMs: nowMs,
      proofs: {
        total: activity.total,
        last24h: activity.since[0] ?? 0,
        last7d: activity.since[1] ?? 0,
        firstAtMs: activity.firstCreatedAtMs,
        lastAtMs: activity.lastCreatedAtMs,
      },
      devices: { total: buckets.reduce((n, b) => n + b.count, 0), byStatus: countByStatus(buckets) },
      groupCount,
      score: {
        average: scores.length ? round4(scores.reduce((a, b) => a + b, 0) / scores.length) : null,
        min: scores.length ? Math.min(...scores) : null,
        max: scores.length ? Math.max(...scores) : null,
        sampleSize: scores.length,
        sampleLimit: SCORE_SAMPLE,
        policy: policyId(DEFAULT_POLICY),
      },
      apiKeys: { ...usage, errorRate: usage.requests > 0 ? round4(usage.errors / usage.requests) : null },
    });
  }
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
