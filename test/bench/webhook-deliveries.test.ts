import test from 'ava';
import { deliveryFigures, type Arrival } from '../../bench/webhook-deliveries.js';

const arrival = (proofId: string, eventMs: number, arrivedMs: number, webhookId = `evt_${proofId}`): Arrival => [webhookId, proofId, arrivedMs, eventMs];

test('each acknowledged proof counts once, by its first arrival; a second arrival is a duplicate', (t) => {
  const f = deliveryFigures(['a', 'b', 'c'], [arrival('a', 0, 10), arrival('b', 0, 20), arrival('a', 0, 500)], 1_000);
  t.is(f.acknowledged, 3);
  t.is(f.received, 2);
  t.is(f.duplicates, 1);
  t.is(f.missing, 1);
  t.is(f.lastArrivalMs, 20);
  // The duplicate's later arrival does not count as a latency.
  t.deepEqual(f.latency, { p50Ms: 20, p99Ms: 20, maxMs: 20 });
});

test('arrivals of proofs not acknowledged are left out', (t) => {
  const f = deliveryFigures(['a'], [arrival('x', 0, 5), arrival('a', 100, 130), arrival('x', 0, 900)], 1_000);
  t.is(f.received, 1);
  t.is(f.duplicates, 0);
  t.is(f.missing, 0);
  t.is(f.lastArrivalMs, 130);
  t.deepEqual(f.latency, { p50Ms: 30, p99Ms: 30, maxMs: 30 });
});

test('behind: acknowledged proofs that had not arrived by the time asked about, including those that never did', (t) => {
  const f = deliveryFigures(['a', 'b', 'c', 'd'], [arrival('a', 0, 90), arrival('b', 0, 100), arrival('c', 0, 101)], 100);
  t.is(f.arrivedBy, 2);
  t.is(f.behind, 2);
  t.is(f.missing, 1);
});

test('latency percentiles are of arrival less event time, over the first arrivals', (t) => {
  const ids = Array.from({ length: 100 }, (_, i) => `p${i}`);
  // Latencies 1..100 ms, arriving in reverse order: the percentiles do not depend on the order.
  const arrivals = ids.map((id, i) => arrival(id, 1_000, 1_000 + i + 1)).reverse();
  const f = deliveryFigures(ids, arrivals, 0);
  t.deepEqual(f.latency, { p50Ms: 51, p99Ms: 100, maxMs: 100 });
  t.is(f.behind, 100);
  t.is(f.arrivedBy, 0);
});

test('with nothing received there is no latency and no last arrival', (t) => {
  const f = deliveryFigures(['a'], [], 0);
  t.is(f.latency, null);
  t.is(f.lastArrivalMs, null);
  t.is(f.missing, 1);
});
