import { bucketMs, DAY_MS, floorTo, HOUR_MS, windowOf, type BucketSize, type BucketWindow } from './buckets.js';

/** The ranges the statistics offer by name: each ends with the current bucket. */
export const PRESETS = {
  '24h': { size: 'hour', count: 24 },
  '7d': { size: 'day', count: 7 },
  '30d': { size: 'day', count: 30 },
  '90d': { size: 'day', count: 90 },
} as const satisfies Record<string, { size: BucketSize; count: number }>;
export type Preset = keyof typeof PRESETS;
export const PRESET_NAMES = Object.keys(PRESETS) as Preset[];

/** The longest window one read covers: a year and a day, by day. */
export const MAX_SPAN_DAYS = 366;
/** A window up to two days long is counted by the hour; a longer one by the day. */
export const HOURLY_UP_TO_MS = 48 * HOUR_MS;

/** The named range ending with the bucket that holds `nowMs`. */
export function presetWindow(preset: Preset, nowMs: number): BucketWindow {
  const { size, count } = PRESETS[preset];
  const from = floorTo(nowMs, size) - (count - 1) * bucketMs(size);
  return windowOf(size, from, nowMs + 1)!;
}

/** [fromMs, toMs) widened to whole buckets: hours up to two days, days beyond. Null when empty. */
export function customWindow(fromMs: number, toMs: number): BucketWindow | null {
  return windowOf(toMs - fromMs <= HOURLY_UP_TO_MS ? 'hour' : 'day', fromMs, toMs);
}

export const WEEKDAYS = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'] as const;

/**
 * Proofs by day of the week (Monday first) and hour of the day, UTC, from counts per hour
 * (each `startMs` the start of a UTC hour). 1970-01-01 was a Thursday (index 3).
 */
export function weekdayHours(hours: ReadonlyArray<{ readonly startMs: number; readonly proofs: number }>): number[][] {
  const grid = WEEKDAYS.map(() => Array.from({ length: 24 }, () => 0));
  for (const h of hours) {
    const day = Math.floor(h.startMs / DAY_MS);
    const weekday = (((day + 3) % 7) + 7) % 7;
    const hour = Math.floor((h.startMs - day * DAY_MS) / HOUR_MS);
    grid[weekday]![hour]! += h.proofs;
  }
  return grid;
}
