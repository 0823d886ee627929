import type { Device } from './device.js';
import type { HealthLevel } from './health-report.js';

export const DEVICE_STATUSES = ['online', 'warning', 'offline', 'degraded', 'error'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** The two windows of config (DEVICE_ONLINE_WINDOW_S, DEVICE_OFFLINE_AFTER_S), in ms. */
export interface StatusWindows {
  readonly onlineWindowMs: number;
  readonly offlineAfterMs: number;
}

/** How recently a device was heard from: within the online window, between the two, or beyond. */
export type Activity = 'recent' | 'idle' | 'silent';
export const ACTIVITIES: readonly Activity[] = ['recent', 'idle', 'silent'];

/** The level of the last health report, or 'none' when the device never sent one. */
export type HealthMark = HealthLevel | 'none';
export const HEALTH_MARKS: readonly HealthMark[] = ['ok', 'degraded', 'error', 'none'];

/**
 * The instants that separate the activities at one moment: a device is recent when last seen
 * at or after `recentSinceMs`, silent when last seen before `silentBeforeMs`. Stores classify
 * with these two numbers, so every reader of one request uses the same "now".
 */
export interface ActivityCutoffs {
  readonly recentSinceMs: number;
  readonly silentBeforeMs: number;
}

export function cutoffsAt(nowMs: number, w: StatusWindows): ActivityCutoffs {
  return { recentSinceMs: nowMs - w.onlineWindowMs, silentBeforeMs: nowMs - w.offlineAfterMs };
}

export function activityOf(lastSeenMs: number, c: ActivityCutoffs): Activity {
  if (lastSeenMs >= c.recentSinceMs) return 'recent';
  return lastSeenMs >= c.silentBeforeMs ? 'idle' : 'silent';
}

/**
 * The status rule, in one place:
 * - silent beyond the offline window → offline (whatever it last reported: that is stale);
 * - otherwise a last report of error or degraded wins, however old, until a newer report
 *   says otherwise: a device does not heal by sending proofs;
 * - otherwise online within the online window, warning between the windows.
 */
export function statusOf(activity: Activity, health: HealthMark): DeviceStatus {
  if (activity === 'silent') return 'offline';
  if (health === 'error') return 'error';
  if (health === 'degraded') return 'degraded';
  return activity === 'recent' ? 'online' : 'warning';
}

export function deviceStatus(device: Pick<Device, 'lastSeenMs' | 'lastHealth'>, c: ActivityCutoffs): DeviceStatus {
  return statusOf(activityOf(device.lastSeenMs, c), device.lastHealth?.status ?? 'none');
}

export interface StatePair {
  readonly activity: Activity;
  readonly health: HealthMark;
}

/** Every (activity, health) pair that `statusOf` maps to one of `statuses`: what stores filter on. */
export function pairsWithStatus(statuses: readonly DeviceStatus[]): StatePair[] {
  return ACTIVITIES.flatMap((activity) =>
    HEALTH_MARKS.filter((health) => statuses.includes(statusOf(activity, health))).map((health) => ({ activity, health })),
  );
}

export type StatusCounts = Readonly<Record<DeviceStatus, number>>;

export const noDevices = (): Record<DeviceStatus, number> => ({ online: 0, warning: 0, offline: 0, degraded: 0, error: 0 });

/** Totals by status from counts by (activity, health). */
export function countByStatus(buckets: Iterable<StatePair & { readonly count: number }>): StatusCounts {
  const counts = noDevices();
  for (const b of buckets) counts[statusOf(b.activity, b.health)] += b.count;
  return counts;
}

/** A device's status right after a proof or a health report from it: heard from just now, so recent. */
export const statusAfterContact = (health: HealthMark): DeviceStatus => statusOf('recent', health);
