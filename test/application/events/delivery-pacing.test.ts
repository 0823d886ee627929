import test from 'ava';
import { DeliveryPacing } from '../../../src/application/events/delivery-pacing.js';

function pacing() {
  let now = 0;
  let share = 0;
  const p = new DeliveryPacing({ busyShare: () => share }, { nowMs: () => now }, { yieldAbove: 0.8, atLeastEveryMs: 1_000 });
  return {
    at: (ms: number, busyShare: number) => {
      now = ms;
      share = busyShare;
      return p.mayClaim();
    },
  };
}

test('at or below the threshold every turn claims', (t) => {
  const p = pacing();
  t.deepEqual(
    [0, 10, 20, 30].map((ms) => p.at(ms, 0.8)),
    [true, true, true, true],
  );
});

test('above it, a claim at most once a second: slower, never stopped', (t) => {
  const p = pacing();
  t.true(p.at(0, 0.95), 'the first claim goes');
  t.deepEqual(
    [10, 500, 999].map((ms) => p.at(ms, 0.81)),
    [false, false, false],
  );
  t.true(p.at(1_000, 1), 'a second later one goes, however busy');
  t.false(p.at(1_001, 0.99));
  t.true(p.at(1_002, 0.5), 'as soon as the load eases, claims go at once');
  t.true(p.at(1_003, 0.1));
});

test('a threshold of 1 never holds deliveries back', (t) => {
  let now = 0;
  const p = new DeliveryPacing({ busyShare: () => 1 }, { nowMs: () => now++ }, { yieldAbove: 1, atLeastEveryMs: 1_000 });
  t.true([1, 2, 3].every(() => p.mayClaim()));
});
