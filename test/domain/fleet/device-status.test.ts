import test from 'ava';
import {
  activityOf,
  countByStatus,
  cutoffsAt,
  deviceStatus,
  pairsWithStatus,
  statusOf,
  DEVICE_STATUSES,
  type DeviceStatus,
} from '../../../src/domain/fleet/device-status.js';
import type { HealthLevel } from '../../../src/domain/fleet/health-report.js';
import { aReport } from '../../support/fleet-mothers.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const windows = { onlineWindowMs: 300_000, offlineAfterMs: 3_600_000 };
const cutoffs = cutoffsAt(NOW, windows);

// [last seen, seconds ago] × [last health] → status
const cases: Array<[string, number, HealthLevel | null, DeviceStatus]> = [
  ['just now, no report', 0, null, 'online'],
  ['at the online window edge', 300, null, 'online'],
  ['one ms past the online window', 300.001, null, 'warning'],
  ['between the windows, ok report', 1800, 'ok', 'warning'],
  ['at the offline edge', 3600, null, 'warning'],
  ['one ms past the offline window', 3600.001, null, 'offline'],
  ['recent, degraded', 10, 'degraded', 'degraded'],
  ['recent, error', 10, 'error', 'error'],
  ['idle, error', 1800, 'error', 'error'],
  ['idle, degraded', 1800, 'degraded', 'degraded'],
  ['silent, error: offline wins', 7200, 'error', 'offline'],
  ['silent, ok', 7200, 'ok', 'offline'],
  ['recent, ok', 60, 'ok', 'online'],
  ['in the future (clock moved back)', -60, null, 'online'],
];

for (const [title, agoS, health, expected] of cases) {
  test(`status: ${title} → ${expected}`, (t) => {
    const lastSeenMs = NOW - agoS * 1000;
    t.is(deviceStatus({ lastSeenMs, lastHealth: health ? aReport(health, lastSeenMs) : null }, cutoffs), expected);
  });
}

test('activity boundaries follow the windows', (t) => {
  t.deepEqual(cutoffs, { recentSinceMs: NOW - 300_000, silentBeforeMs: NOW - 3_600_000 });
  t.is(activityOf(cutoffs.recentSinceMs, cutoffs), 'recent');
  t.is(activityOf(cutoffs.recentSinceMs - 1, cutoffs), 'idle');
  t.is(activityOf(cutoffs.silentBeforeMs, cutoffs), 'idle');
  t.is(activityOf(cutoffs.silentBeforeMs - 1, cutoffs), 'silent');
});

test('pairsWithStatus is the exact inverse of statusOf', (t) => {
  for (const status of DEVICE_STATUSES) {
    const pairs = pairsWithStatus([status]);
    t.true(pairs.length > 0, status);
    for (const p of pairs) t.is(statusOf(p.activity, p.health), status);
  }
  t.is(pairsWithStatus([...DEVICE_STATUSES]).length, 12);
  t.deepEqual(pairsWithStatus([]), []);
});

test('countByStatus totals buckets', (t) => {
  t.deepEqual(
    countByStatus([
      { activity: 'recent', health: 'none', count: 3 },
      { activity: 'recent', health: 'ok', count: 2 },
      { activity: 'idle', health: 'error', count: 1 },
      { activity: 'silent', health: 'degraded', count: 4 },
      { activity: 'idle', health: 'none', count: 5 },
    ]),
    { online: 5, warning: 5, offline: 4, degraded: 0, error: 1 },
  );
});
