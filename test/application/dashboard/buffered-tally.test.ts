import test from 'ava';
import { KeyDayTally } from '../../../src/application/identity/key-day-tally.js';
import type { HourRejections, KeyDayUsage } from '../../../src/application/ports/usage-series.js';
import { RejectionTally } from '../../../src/application/proofs/rejection-tally.js';

test('key usage is summed per key and UTC day until a flush writes it, once', async (t) => {
  const written: KeyDayUsage[][] = [];
  const tally = new KeyDayTally({ add: async (rows) => void written.push([...rows]) });
  tally.record('key_a', 200, Date.parse('2026-11-20T23:59:59Z'));
  tally.record('key_a', 404, Date.parse('2026-11-20T01:00:00Z'));
  tally.record('key_a', 200, Date.parse('2026-11-21T00:00:00Z'));
  tally.record('key_b', 500, Date.parse('2026-11-20T12:00:00Z'));
  t.deepEqual(written, []);
  await tally.flush();
  await tally.flush();
  const day = (iso: string) => Date.parse(iso);
  t.deepEqual(written, [
    [
      { keyId: 'key_a', dayMs: day('2026-11-20T00:00:00Z'), requests: 2, errors: 1 },
      { keyId: 'key_a', dayMs: day('2026-11-21T00:00:00Z'), requests: 1, errors: 0 },
      { keyId: 'key_b', dayMs: day('2026-11-20T00:00:00Z'), requests: 1, errors: 1 },
    ],
  ]);
});

test('a failed write keeps the counts for the next flush, added to what came since', async (t) => {
  let fail = true;
  const written: HourRejections[][] = [];
  const tally = new RejectionTally({
    add: async (rows) => {
      if (fail) throw new Error('database down');
      written.push([...rows]);
    },
  });
  tally.record('wallet', Date.parse('2026-11-20T10:15:00Z'));
  await t.throwsAsync(tally.flush(), { message: 'database down' });
  fail = false;
  tally.record('wallet', Date.parse('2026-11-20T10:45:00Z'));
  await tally.flush();
  t.deepEqual(written, [[{ wallet: 'wallet', hourMs: Date.parse('2026-11-20T10:00:00Z'), count: 2 }]]);
});
