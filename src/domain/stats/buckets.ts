/** Chart buckets: UTC hours or days, each named by the instant it starts. */
export type BucketSize = 'hour' | 'day';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;

/** The most buckets one series answers: enough for 41 days by hour or 2.7 years by day. */
export const MAX_POINTS = 1000;

export const bucketMs = (size: BucketSize): number => (size === 'hour' ? HOUR_MS : DAY_MS);

/** Start of the bucket holding `ms` (UTC: epoch ms count no leap seconds, so hours and days divide evenly). */
export const floorTo = (ms: number, size: BucketSize): number => Math.floor(ms / bucketMs(size)) * bucketMs(size);

/** End of the bucket holding `ms - 1`: `ms` itself when it starts a bucket. */
export const ceilTo = (ms: number, size: BucketSize): number => Math.ceil(ms / bucketMs(size)) * bucketMs(size);

export interface BucketWindow {
  readonly size: BucketSize;
  /** Start of the first bucket. */
  readonly fromMs: number;
  /** End of the last bucket (exclusive). */
  readonly toMs: number;
  readonly points: number;
}

/**
 * The buckets covering [fromMs, toMs): from the one holding `fromMs` to the one holding the
 * last instant before `toMs`. Null when the window is empty (toMs ≤ fromMs).
 */
export function windowOf(size: BucketSize, fromMs: number, toMs: number): BucketWindow | null {
  if (toMs <= fromMs) return null;
  const from = floorTo(fromMs, size);
  const to = ceilTo(toMs, size);
  return { size, fromMs: from, toMs: to, points: (to - from) / bucketMs(size) };
}

/** The default window ending now: the last 24 hours by hour, the last 30 days by day, the current bucket included. */
export function recentWindow(size: BucketSize, nowMs: number): BucketWindow {
  const count = size === 'hour' ? 24 : 30;
  const from = floorTo(nowMs, size) - (count - 1) * bucketMs(size);
  return windowOf(size, from, nowMs + 1)!;
}

/** Every bucket start of the window, oldest first. */
export function bucketStarts(w: BucketWindow): number[] {
  const step = bucketMs(w.size);
  return Array.from({ length: w.points }, (_, i) => w.fromMs + i * step);
}
