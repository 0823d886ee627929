import * as E from 'fp-ts/lib/Either.js';
import { ceilTo, floorTo, HOUR_MS, type BucketWindow } from '../../domain/stats/buckets.js';
import { customWindow, MAX_SPAN_DAYS, presetWindow, weekdayHours, type Preset } from '../../domain/stats/statistics-window.js';
import type { NotYourWallet } from '../fleet/fleet-errors.js';
import type { Clock } from '../ports/clock.js';
import type { KeyStore } from '../ports/key-store.js';
import type { BreakdownKey, ProofBreakdownReader, ProofShare } from '../ports/proof-breakdown.js';
import type { KeyUsageHistory, ProofSeriesReader } from '../ports/usage-series.js';
import type { EmptyWindow, GetActivitySeries } from './get-activity-series.js';

export type WindowConflict = { readonly _tag: 'WindowConflict' };
export type WindowIncomplete = { readonly _tag: 'WindowIncomplete'; readonly missing: 'from' | 'to' };
export type WindowTooLong = { readonly _tag: 'WindowTooLong'; readonly days: number; readonly maxDays: number };
export type StatisticsFailure = NotYourWallet | EmptyWindow | WindowConflict | WindowIncomplete | WindowTooLong;

export interface StatisticsInput {
  readonly caller: string;
  readonly wallet: string;
  /** A named range; or a custom window (`fromMs` and `toMs`); neither: the last 7 days. */
  readonly range?: Preset;
  readonly fromMs?: number;
  readonly toMs?: number;
  /** How many robots and tasks are named; the rest are summed into `other`. */
  readonly top: number;
}

/** The first robots (or tasks) by proofs, the rest summed, and every proof of the window. */
export interface Breakdown {
  readonly entries: readonly ProofShare[];
  readonly other: number;
  readonly total: number;
}

export interface EndpointUsage {
  readonly endpoint: string;
  readonly requests: number;
  readonly errors: number;
}

export interface Statistics {
  readonly range: Preset | 'custom';
  readonly window: BucketWindow;
  readonly points: ReadonlyArray<{ readonly startMs: number; readonly proofs: number; readonly refused: number }>;
  readonly proofs: number;
  readonly refused: number;
  readonly robots: Breakdown;
  readonly tasks: Breakdown;
  /** Proofs per weekday (Monday first) and UTC hour. */
  readonly weekdayHours: number[][];
  /** Requests of the wallet's keys per endpoint, over the whole UTC days covering the window (usage is kept by day). */
  readonly usage: {
    readonly fromMs: number;
    readonly toMs: number;
    readonly requests: number;
    readonly errors: number;
    readonly endpoints: readonly EndpointUsage[];
  };
}

/**
 * A wallet's statistics over a named range or a window of its choosing, every figure counted
 * from what is stored: the series (proofs by created_at, refusals by when they were refused),
 * the robots and tasks with the most proofs, the proofs by weekday and hour (from the kept
 * counts per hour), and the requests of the wallet's current API keys per endpoint.
 */
export class GetStatistics {
  constructor(
    private readonly series: Pick<GetActivitySeries, 'execute'>,
    private readonly proofs: ProofSeriesReader,
    private readonly breakdown: ProofBreakdownReader,
    private readonly keys: Pick<KeyStore, 'listByWallet'>,
    private readonly usage: Pick<KeyUsageHistory, 'endpointDays'>,
    private readonly pendingUsage: { flush(): Promise<unknown> },
    private readonly clock: Clock,
  ) {}

  async execute(input: StatisticsInput): Promise<E.Either<StatisticsFailure, Statistics>> {
    if (input.caller !== input.wallet) return E.left({ _tag: 'NotYourWallet', wallet: input.wallet });
    const chosen = this.windowFor(input);
    if (E.isLeft(chosen)) return chosen;
    const w = chosen.right;
    const series = await this.series.execute({ caller: input.caller, wallet: input.wallet, bucket: w.size, fromMs: w.fromMs, toMs: w.toMs });
    if (E.isLeft(series)) throw new Error(`the statistics' own window was refused: ${series.left._tag}`);
    const points = series.right.points.map((p) => ({ startMs: p.startMs, proofs: p.proofs, refused: p.invalid }));
    const proofs = points.reduce((n, p) => n + p.proofs, 0);
    const share = async (by: BreakdownKey): Promise<Breakdown> => {
      const entries = await this.breakdown.top(input.wallet, by, w.fromMs, w.toMs, input.top);
      return { entries, other: proofs - entries.reduce((n, e) => n + e.proofs, 0), total: proofs };
    };
    const [robots, tasks, hours, usage] = await Promise.all([
      share('robot'),
      share('task'),
      this.proofs.buckets(input.wallet, HOUR_MS, w.fromMs, w.toMs),
      this.endpointUsage(input.wallet, w),
    ]);
    return E.right({
      range: input.range ?? (input.fromMs === undefined ? '7d' : 'custom'),
      window: w,
      points,
      proofs,
      refused: points.reduce((n, p) => n + p.refused, 0),
      robots,
      tasks,
      weekdayHours: weekdayHours(hours),
      usage,
    });
  }

  private windowFor(input: StatisticsInput): E.Either<StatisticsFailure, BucketWindow> {
    const custom = input.fromMs !== undefined || input.toMs !== undefined;
    if (input.range !== undefined && custom) return E.left({ _tag: 'WindowConflict' });
    if (!custom) return E.right(presetWindow(input.range ?? '7d', this.clock.nowMs()));
    if (input.fromMs === undefined) return E.left({ _tag: 'WindowIncomplete', missing: 'from' });
    if (input.toMs === undefined) return E.left({ _tag: 'WindowIncomplete', missing: 'to' });
    const w = customWindow(input.fromMs, input.toMs);
    if (w === null) return E.left({ _tag: 'EmptyWindow' });
    const days = Math.ceil((input.toMs - input.fromMs) / 86_400_000);
    if (days > MAX_SPAN_DAYS) return E.left({ _tag: 'WindowTooLong', days, maxDays: MAX_SPAN_DAYS });
    return E.right(w);
  }

  private async endpointUsage(wallet: string, w: BucketWindow): Promise<Statistics['usage']> {
    await this.pendingUsage.flush();
    const fromMs = floorTo(w.fromMs, 'day');
    const toMs = ceilTo(w.toMs, 'day');
    // The keys the wallet has now: a deleted key's rows stay but are no longer anyone's to read.
    const keys = await this.keys.listByWallet(wallet);
    const rows = (await Promise.all(keys.map((k) => this.usage.endpointDays(k.keyId, fromMs, toMs)))).flat();
    const byEndpoint = new Map<string, { requests: number; errors: number }>();
    for (const r of rows) {
      const seen = byEndpoint.get(r.endpoint) ?? { requests: 0, errors: 0 };
      byEndpoint.set(r.endpoint, { requests: seen.requests + r.requests, errors: seen.errors + r.errors });
    }
    const endpoints = [...byEndpoint].map(([endpoint, n]) => ({ endpoint, ...n }));
    endpoints.sort((a, b) => b.requests - a.requests || (a.endpoint < b.endpoint ? -1 : a.endpoint > b.endpoint ? 1 : 0));
    return { fromMs, toMs, requests: rows.reduce((n, r) => n + r.requests, 0), errors: rows.reduce((n, r) => n + r.errors, 0), endpoints };
  }
}
