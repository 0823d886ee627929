import * as E from 'fp-ts/lib/Either.js';
import { countByStatus, cutoffsAt, type StatusCounts, type StatusWindows } from '../../domain/fleet/device-status.js';
import { DEFAULT_POLICY, policyId } from '../../domain/scoring/scoring-policy.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceStore } from '../ports/device-store.js';
import type { GroupStore } from '../ports/group-store.js';
import type { ProofActivityReader } from '../ports/proof-activity.js';
import type { NamedCount, WalletStatsStore } from '../ports/wallet-stats.js';
import type { InvalidDays, NotYourWallet } from './fleet-errors.js';

/**
 * API-key usage of a wallet, summed over its keys (deleted keys included when the key store
 * keeps them). Provided by the identity module; the statistics need only the two totals.
 */
export interface KeyUsageTotals {
  totals(wallet: string): Promise<{ readonly requests: number; readonly errors: number }>;
}

/** Proofs whose kept scores make the recent min, max and average: the latest ones. */
export const SCORE_SAMPLE = 100;
/** Robots and tasks listed by proof count. */
export const TOP_ENTRIES = 10;
/** The activity timeline's window, in days: 1 to 365, 30 unless asked. */
export const TIMELINE_DAYS = { min: 1, max: 365, default: 30 } as const;

const DAY_MS = 86_400_000;

export interface TimelineDay {
  /** Start of the UTC day, in ms. */
  readonly dayMs: number;
  readonly proofs: number;
  readonly verifications: number;
}

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
    /** Over every scored proof of the wallet. */
    readonly averageAll: number | null;
    readonly scoredProofs: number;
  };
  readonly apiKeys: { readonly requests: number; readonly errors: number; readonly errorRate: number | null };
  /** Proofs accepted, counted as they were stored. */
  readonly proofsSubmitted: number;
  readonly verifications: { readonly successful: number; readonly failed: number; readonly total: number; readonly successRate: number | null };
  /** Registry time of the first and last proof accepted or verification answered. */
  readonly activity: { readonly firstMs: number | null; readonly lastMs: number | null };
  readonly topRobots: readonly NamedCount[];
  readonly topTasks: readonly NamedCount[];
  /** Every UTC day of the window, oldest first, today last; days without activity are zeros. */
  readonly timeline: readonly TimelineDay[];
}

/**
 * A wallet's own statistics. Asking for another wallet's is refused outright (not answered
 * with zeros): whether a wallet uses the registry is itself information about it.
 *
 * Nothing here reads the wallet's proofs one by one: counts come from indexes and aggregates
 * kept as proofs are stored and verifications answered, and scores were kept as each proof
 * was received. A request's work does not grow with the size of the wallet's proofs.
 */
export class GetWalletStats {
  constructor(
    private readonly devices: DeviceStore,
    private readonly groups: GroupStore,
    private readonly proofs: ProofActivityReader,
    private readonly keyUsage: KeyUsageTotals,
    private readonly clock: Clock,
    private readonly windows: StatusWindows,
    private readonly stats: WalletStatsStore,
  ) {}

  async execute(input: { caller: string; wallet: string; days?: number }): Promise<E.Either<NotYourWallet | InvalidDays, WalletStats>> {
    if (input.caller !== input.wallet) return E.left({ _tag: 'NotYourWallet', wallet: input.wallet });
    const days = input.days ?? TIMELINE_DAYS.default;
    if (!Number.isSafeInteger(days) || days < TIMELINE_DAYS.min || days > TIMELINE_DAYS.max) return E.left({ _tag: 'InvalidDays', days });
    const wallet = input.wallet;
    const nowMs = this.clock.nowMs();
    const today = nowMs - (nowMs % DAY_MS);
    const fromDayMs = today - (days - 1) * DAY_MS;
    const [activity, buckets, groupCount, scores, usage, kept] = await Promise.all([
      this.proofs.activity(wallet, [nowMs - DAY_MS, nowMs - 7 * DAY_MS], nowMs),
      this.devices.deviceBuckets(wallet, cutoffsAt(nowMs, this.windows)),
      this.groups.countGroups(wallet),
      this.proofs.recentScores(wallet, SCORE_SAMPLE),
      this.keyUsage.totals(wallet),
      this.stats.read(wallet, { top: TOP_ENTRIES, fromDayMs, toDayMs: today }),
    ]);
    const t = kept.totals;
    const verifications = t.verificationsSuccessful + t.verificationsFailed;
    const byDay = new Map(kept.days.map((d) => [d.dayMs, d]));
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
        averageAll: t.scoredProofs > 0 ? round4(t.scoreSum / t.scoredProofs) : null,
        scoredProofs: t.scoredProofs,
      },
      apiKeys: { ...usage, errorRate: usage.requests > 0 ? round4(usage.errors / usage.requests) : null },
      proofsSubmitted: t.proofsSubmitted,
      verifications: {
        successful: t.verificationsSuccessful,
        failed: t.verificationsFailed,
        total: verifications,
        successRate: verifications > 0 ? round4(t.verificationsSuccessful / verifications) : null,
      },
      activity: { firstMs: t.firstActivityMs, lastMs: t.lastActivityMs },
      topRobots: kept.topRobots,
      topTasks: kept.topTasks,
      timeline: Array.from({ length: days }, (_, i) => {
        const dayMs = fromDayMs + i * DAY_MS;
        const d = byDay.get(dayMs);
        return { dayMs, proofs: d?.proofs ?? 0, verifications: d?.verifications ?? 0 };
      }),
    });
  }
}

const round4 = (x: number) => Math.round(x * 1e4) / 1e4;
