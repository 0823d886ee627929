import test from 'ava';
import { isLeft } from 'fp-ts/lib/Either.js';
import { MemoryKeyStore } from '../../../src/adapters/memory/memory-key-store.js';
import { MemoryProofBreakdown } from '../../../src/adapters/memory/memory-proof-breakdown.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { MemoryKeyUsageHistory, MemoryProofRejectionLog, MemoryProofSeries } from '../../../src/adapters/memory/memory-usage-series.js';
import { GetActivitySeries } from '../../../src/application/dashboard/get-activity-series.js';
import { GetStatistics } from '../../../src/application/dashboard/get-statistics.js';
import { ManualClock } from '../../support/identity.js';
import { WALLET_A } from '../../support/mothers.js';

const DAY = 86_400_000;
const clock = new ManualClock(Date.parse('2026-11-20T10:30:00Z'));

function statistics(flushed: string[] = []) {
  const proofs = new MemoryProofStore();
  const series = new MemoryProofSeries(proofs);
  const none = { flush: async () => undefined };
  const activity = new GetActivitySeries(series, new MemoryProofRejectionLog(), none, clock);
  const pending = { flush: async () => void flushed.push('usage') };
  return new GetStatistics(activity, series, new MemoryProofBreakdown(proofs), new MemoryKeyStore(), new MemoryKeyUsageHistory(), pending, clock);
}
const ask = (o: { range?: '24h' | '7d'; fromMs?: number; toMs?: number }) => statistics().execute({ caller: WALLET_A, wallet: WALLET_A, top: 10, ...o });
const from = Date.parse('2026-01-01T00:00:00Z');

for (const [name, input, tag] of [
  ['range with from and to', { range: '7d', fromMs: from, toMs: from + DAY }, 'WindowConflict'],
  ['from alone', { fromMs: from }, 'WindowIncomplete'],
  ['to alone', { toMs: from }, 'WindowIncomplete'],
  ['to before from', { fromMs: from, toMs: from - 1 }, 'EmptyWindow'],
  ['to equal to from', { fromMs: from, toMs: from }, 'EmptyWindow'],
  ['367 days', { fromMs: from, toMs: from + 367 * DAY }, 'WindowTooLong'],
] as const) {
  test(`${name} is refused as ${tag}`, async (t) => {
    const r = await ask(input);
    t.true(isLeft(r) && r.left._tag === tag, JSON.stringify(r));
  });
}

test('366 days is the longest window, by day; with no window the last 7 days', async (t) => {
  const year = await ask({ fromMs: from, toMs: from + 366 * DAY });
  t.true(!isLeft(year) && year.right.window.size === 'day' && year.right.points.length === 366);
  const flushed: string[] = [];
  const r = await statistics(flushed).execute({ caller: WALLET_A, wallet: WALLET_A, top: 10 });
  t.true(!isLeft(r) && r.right.range === '7d' && r.right.points.length === 7);
  t.deepEqual(flushed, ['usage'], 'the pending request counts are written before they are read');
});
