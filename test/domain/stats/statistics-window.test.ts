import test from 'ava';
import { customWindow, presetWindow, weekdayHours } from '../../../src/domain/stats/statistics-window.js';

const ms = (iso: string) => Date.parse(iso);
const NOW = ms('2026-11-20T10:30:00Z'); // a Friday

for (const [preset, size, from, points] of [
  ['24h', 'hour', '2026-11-19T11:00:00Z', 24],
  ['7d', 'day', '2026-11-14T00:00:00Z', 7],
  ['30d', 'day', '2026-10-22T00:00:00Z', 30],
  ['90d', 'day', '2026-08-23T00:00:00Z', 90],
] as const) {
  test(`${preset} ends with the current ${size} and holds ${points} of them`, (t) => {
    const w = presetWindow(preset, NOW);
    t.deepEqual(w, { size, fromMs: ms(from), toMs: ms(size === 'hour' ? '2026-11-20T11:00:00Z' : '2026-11-21T00:00:00Z'), points });
  });
}

for (const [from, to, size, widenedFrom, widenedTo] of [
  ['2026-11-20T09:15:00Z', '2026-11-20T10:00:00Z', 'hour', '2026-11-20T09:00:00Z', '2026-11-20T10:00:00Z'],
  ['2026-11-18T00:00:00Z', '2026-11-20T00:00:00Z', 'hour', '2026-11-18T00:00:00Z', '2026-11-20T00:00:00Z'],
  ['2026-11-18T00:00:00Z', '2026-11-20T00:00:01Z', 'day', '2026-11-18T00:00:00Z', '2026-11-21T00:00:00Z'],
] as const) {
  test(`a custom window ${from} – ${to} is counted by ${size}, widened to whole buckets`, (t) => {
    t.like(customWindow(ms(from), ms(to)), { size, fromMs: ms(widenedFrom), toMs: ms(widenedTo) });
  });
}

test('an empty custom window is none', (t) => {
  t.is(customWindow(NOW, NOW), null);
  t.is(customWindow(NOW, NOW - 1), null);
});

test('weekday × hour puts each UTC hour in its row (Monday first) and column, before 1970 too', (t) => {
  const grid = weekdayHours([
    { startMs: ms('2026-11-16T00:00:00Z'), proofs: 2 }, // Monday 00
    { startMs: ms('2026-11-22T23:00:00Z'), proofs: 3 }, // Sunday 23
    { startMs: ms('2026-11-23T23:00:00Z'), proofs: 1 }, // the next Monday 23
    { startMs: ms('1970-01-01T05:00:00Z'), proofs: 4 }, // a Thursday
    { startMs: ms('1969-12-31T22:00:00Z'), proofs: 5 }, // a Wednesday
  ]);
  t.is(grid.length, 7);
  t.true(grid.every((row) => row.length === 24));
  t.is(grid[0]![0], 2);
  t.is(grid[6]![23], 3);
  t.is(grid[0]![23], 1);
  t.is(grid[3]![5], 4);
  t.is(grid[2]![22], 5);
  t.is(
    grid.flat().reduce((a, b) => a + b, 0),
    15,
  );
});
