import test from 'ava';
import { bucketStarts, recentWindow, windowOf } from '../../../src/domain/stats/buckets.js';

const ms = (iso: string) => Date.parse(iso);
const iso = (n: number) => new Date(n).toISOString();

const windows: Array<[string, 'hour' | 'day', string, string, string, string, number]> = [
  ['aligned ends', 'hour', '2026-11-20T00:00:00Z', '2026-11-20T03:00:00Z', '2026-11-20T00:00:00.000Z', '2026-11-20T03:00:00.000Z', 3],
  ['ragged ends widen to whole buckets', 'hour', '2026-11-20T00:30:00Z', '2026-11-20T02:00:01Z', '2026-11-20T00:00:00.000Z', '2026-11-20T03:00:00.000Z', 3],
  ['one instant is one bucket', 'day', '2026-11-20T10:00:00Z', '2026-11-20T10:00:00.001Z', '2026-11-20T00:00:00.000Z', '2026-11-21T00:00:00.000Z', 1],
  [
    'before 1970 floors down, not towards zero',
    'day',
    '1969-12-31T12:00:00Z',
    '1970-01-01T12:00:00Z',
    '1969-12-31T00:00:00.000Z',
    '1970-01-02T00:00:00.000Z',
    2,
  ],
];
for (const [name, size, from, to, wantFrom, wantTo, points] of windows) {
  test(`windowOf: ${name}`, (t) => {
    const w = windowOf(size, ms(from), ms(to))!;
    t.deepEqual([iso(w.fromMs), iso(w.toMs), w.points], [wantFrom, wantTo, points]);
    t.is(bucketStarts(w).length, points);
  });
}

test('windowOf: an empty or reversed window is none', (t) => {
  t.is(windowOf('hour', ms('2026-11-20T00:00:00Z'), ms('2026-11-20T00:00:00Z')), null);
  t.is(windowOf('day', ms('2026-11-21T00:00:00Z'), ms('2026-11-20T00:00:00Z')), null);
});

test('recentWindow: 24 hours or 30 days, the current bucket last', (t) => {
  const now = ms('2026-11-20T10:30:00Z');
  const hours = recentWindow('hour', now);
  t.deepEqual([iso(hours.fromMs), iso(hours.toMs), hours.points], ['2026-11-19T11:00:00.000Z', '2026-11-20T11:00:00.000Z', 24]);
  const days = recentWindow('day', now);
  t.deepEqual([iso(days.fromMs), iso(days.toMs), days.points], ['2026-10-22T00:00:00.000Z', '2026-11-21T00:00:00.000Z', 30]);
  // At a bucket's first instant, that bucket is the current one.
  t.is(iso(recentWindow('hour', ms('2026-11-20T10:00:00Z')).toMs), '2026-11-20T11:00:00.000Z');
});
