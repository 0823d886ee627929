import * as E from 'fp-ts/lib/Either.js';
import { bucketMs, bucketStarts, floorTo, MAX_POINTS, recentWindow, windowOf, type BucketSize, type BucketWindow } from '../../domain/stats/buckets.js';
import type { NotYourWallet } from '../fleet/fleet-errors.js';
import type { Clock } from '../ports/clock.js';
import type { ProofRejectionLog, ProofSeriesReader } from '../ports/usage-series.js';

export type EmptyWindow = { readonly _tag: 'EmptyWindow' };
export type TooManyPoints = { readonly _tag: 'TooManyPoints'; readonly points: number; readonly max: number };
export type SeriesFailure = NotYourWallet | EmptyWindow | TooManyPoints;

export interface SeriesPoint {
  readonly startMs: number;
  readonly proofs: number;
  /** Submissions refused in the bucket (the envelope did not verify or could not be stored). */
  readonly invalid: number;
  /** Distinct devices with a proof in the bucket. */
  readonly devicesActive: number;
}

export interface ActivitySeries {
  readonly window: BucketWindow;
  readonly points: readonly SeriesPoint[];
}

export interface SeriesInput {
  readonly caller: string;
  readonly wallet: string;
  readonly bucket: BucketSize;
  readonly fromMs?: number;
  readonly toMs?: number;
}

/**
 * A wallet's proofs, refused submissions and active devices per hour or day, every bucket of
 * the window present (zeros included). Proofs count by their created_at, as the statistics
 * do; refusals by when they were refused (a refused envelope has no trusted date).
 */
export class GetActivitySeries {
  constructor(
    private readonly proofs: ProofSeriesReader,
    private readonly rejections: Pick<ProofRejectionLog, 'hours'>,
    private readonly pending: { flush(): Promise<void> },
    private readonly clock: Clock,
  ) {}

  async execute(input: SeriesInput): Promise<E.Either<SeriesFailure, ActivitySeries>> {
    if (input.caller !== input.wallet) return E.left({ _tag: 'NotYourWallet', wallet: input.wallet });
    const window = this.windowFor(input);
    if (E.isLeft(window)) return window;
    const w = window.right;
    await this.pending.flush();
    const [proofBuckets, hours] = await Promise.all([
      this.proofs.buckets(input.wallet, bucketMs(w.size), w.fromMs, w.toMs),
      this.rejections.hours(input.wallet, w.fromMs, w.toMs),
    ]);
    const invalid = new Map<number, number>();
    for (const h of hours) {
      const start = floorTo(h.hourMs, w.size);
      invalid.set(start, (invalid.get(start) ?? 0) + h.count);
    }
    const byStart = new Map(proofBuckets.map((b) => [b.startMs, b]));
    return E.right({
      window: w,
      points: bucketStarts(w).map((startMs) => ({
        startMs,
        proofs: byStart.get(startMs)?.proofs ?? 0,
        invalid: invalid.get(startMs) ?? 0,
        devicesActive: byStart.get(startMs)?.devices ?? 0,
      })),
    });
  }

  private windowFor(input: SeriesInput): E.Either<EmptyWindow | TooManyPoints, BucketWindow> {
    const nowMs = this.clock.nowMs();
    if (input.fromMs === undefined && input.toMs === undefined) return E.right(recentWindow(input.bucket, nowMs));
    const to = input.toMs ?? nowMs + 1;
    const from = input.fromMs ?? to - (input.bucket === 'hour' ? 24 : 30) * bucketMs(input.bucket);
    const w = windowOf(input.bucket, from, to);
    if (w === null) return E.left({ _tag: 'EmptyWindow' });
    if (w.points > MAX_POINTS) return E.left({ _tag: 'TooManyPoints', points: w.points, max: MAX_POINTS });
    return E.right(w);
  }
}
