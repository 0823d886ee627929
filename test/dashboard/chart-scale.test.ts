import test from 'ava';
import { countScale } from '../../dashboard/src/chart-scale.js';

// The y axis of a count chart labels a value at or above its tallest bar, in steps a person reads.
const cases: Array<[number, number, number]> = [
  // data max, axis top, step
  [0, 1, 1],
  [1, 1, 1],
  [2, 2, 1],
  [5, 5, 1],
  [6, 6, 2],
  [9, 10, 2],
  [10, 10, 2],
  [11, 15, 5],
  [23, 25, 5],
  [26, 30, 10],
  [99, 100, 20],
  [101, 150, 50],
  [4321, 5000, 1000],
  [2.5, 3, 1],
];

for (const [dataMax, max, step] of cases) {
  test(`a tallest bar of ${dataMax}: the axis goes to ${max} in steps of ${step}`, (t) => {
    const scale = countScale(dataMax);
    t.is(scale.max, max);
    t.is(scale.step, step);
    t.true(scale.max >= dataMax);
    t.is(scale.ticks[0], 0);
    t.is(scale.ticks.at(-1), scale.max, 'the top is labelled');
    t.true(scale.ticks.length - 1 <= 5, `${scale.ticks.length - 1} steps`);
    t.deepEqual(
      scale.ticks.slice(1).map((v, i) => v - scale.ticks[i]!),
      Array.from({ length: scale.ticks.length - 1 }, () => step),
    );
  });
}

test('a value that is not a number draws the smallest axis, not a broken one', (t) => {
  t.deepEqual(countScale(Number.NaN), { max: 1, step: 1, ticks: [0, 1] });
  t.deepEqual(countScale(-3), { max: 1, step: 1, ticks: [0, 1] });
});
