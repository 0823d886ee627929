import { parseRfc3339 } from '../protocol/datetime.js';
import type { TelemetryEvent } from '../protocol/envelope.js';
import { formatDuration as d, plural, result, type ComponentResult } from './explain.js';
import type { ScoringParameters } from './scoring-policy.js';

/**
 * Temporal consistency: the fraction of events whose timestamp is believable. A signature
 * proves who made a proof, not that its clock readings are honest; events out of order, far
 * from the run, or ahead of now suggest a replayed, stitched or fabricated log. An event is
 * consistent when all hold:
 *   - its ts parses (RFC 3339);
 *   - it is in ts order: the events out of order are the fewest whose removal leaves the
 *     rest non-decreasing (so one stray event costs one event, wherever it sits);
 *   - created_at − eventWindow ≤ ts ≤ created_at + eventGrace;
 *   - ts ≤ now + clockSkew.
 * Each event counts once however many rules it breaks; the reason counts each rule broken.
 */
export function temporal(events: readonly TelemetryEvent[], createdAtMs: number | null, nowMs: number, p: ScoringParameters, explain = true): ComponentResult {
  if (events.length === 0) {
    return result(p.temporalWithoutEvents, `no events to check, so temporal takes the neutral value ${p.temporalWithoutEvents}`);
  }
  if (createdAtMs === null) return result(0, 'created_at is not an RFC 3339 date-time, so no event can be placed in the run');
  const broken = { unparseable: 0, outOfOrder: 0, tooEarly: 0, afterCreated: 0, future: 0 };
  const times = events.map((e) => parseRfc3339(e.ts));
  const ordered = inOrder(times);
  let consistent = 0;
  times.forEach((ts, i) => {
    if (ts === null) {
      broken.unparseable++;
      return;
    }
    const outOfOrder = !ordered[i];
    const tooEarly = ts < createdAtMs - p.eventWindowMs;
    const afterCreated = ts > createdAtMs + p.eventGraceMs;
    const future = ts > nowMs + p.clockSkewMs;
    if (outOfOrder) broken.outOfOrder++;
    if (tooEarly) broken.tooEarly++;
    if (afterCreated) broken.afterCreated++;
    if (future) broken.future++;
    if (!outOfOrder && !tooEarly && !afterCreated && !future) consistent++;
  });
  if (!explain) return result(consistent / events.length, '');
  const penalties = [
    broken.unparseable > 0 ? `${broken.unparseable} with an unparseable ts` : '',
    broken.outOfOrder > 0 ? `${broken.outOfOrder} out of ts order` : '',
    broken.tooEarly > 0 ? `${broken.tooEarly} more than ${d(p.eventWindowMs)} before created_at` : '',
    broken.afterCreated > 0 ? `${broken.afterCreated} more than ${d(p.eventGraceMs)} after created_at` : '',
    broken.future > 0 ? `${broken.future} more than ${d(p.clockSkewMs)} in the future` : '',
  ].filter((s) => s !== '');
  const rules = `events must be in ts order, from ${d(p.eventWindowMs)} before created_at to ${d(p.eventGraceMs)} after it, and at most ${d(p.clockSkewMs)} ahead of now`;
  return result(
    consistent / events.length,
    `${consistent} of ${plural(events.length, 'event')} consistent` + (penalties.length > 0 ? ` (${penalties.join('; ')})` : '') + `; ${rules}`,
  );
}

/**
 * Freshness: recent proofs say more about a device's current state than old ones. 1 up to
 * freshFor of age, then linear down to 0 at staleAfter:
 *   freshness = 1 − (age − freshFor) / (staleAfter − freshFor), clamped to [0, 1].
 * A created_at ahead of the registry's clock by more than the skew cannot be true, so it
 * scores 0 rather than "perfectly fresh".
 */
export function freshness(createdAtMs: number | null, nowMs: number, p: ScoringParameters, explain = true): ComponentResult {
  if (createdAtMs === null) return result(0, 'created_at is not an RFC 3339 date-time, so its age is unknown');
  const age = nowMs - createdAtMs;
  if (!explain) return result(age < -p.clockSkewMs ? 0 : age <= p.freshForMs ? 1 : 1 - (age - p.freshForMs) / (p.staleAfterMs - p.freshForMs), '');
  if (age < -p.clockSkewMs) {
    return result(0, `created_at is ${d(-age)} in the future, beyond the ${d(p.clockSkewMs)} clock-skew tolerance`);
  }
  if (age < 0) return result(1, `created_at is ${d(-age)} ahead of the registry clock, within the ${d(p.clockSkewMs)} skew tolerance; fully fresh`);
  if (age <= p.freshForMs) return result(1, `created ${d(age)} ago; fully fresh up to ${d(p.freshForMs)}`);
  const rule = `freshness falls linearly from 1 at ${d(p.freshForMs)} to 0 at ${d(p.staleAfterMs)}`;
  if (age >= p.staleAfterMs) return result(0, `created ${d(age)} ago; ${rule}`);
  const value = 1 - (age - p.freshForMs) / (p.staleAfterMs - p.freshForMs);
  return result(value, `created ${d(age)} ago; ${rule}`);
}

/**
 * Marks the events on one longest non-decreasing run of timestamps (patience sorting,
 * O(n log n)); unparseable timestamps take no part. Everything unmarked is out of order.
 */
export function inOrder(times: readonly (number | null)[]): boolean[] {
  const tails: number[] = []; // tails[k]: index ending the best run of length k + 1
  const previous = new Array<number>(times.length).fill(-1);
  times.forEach((ts, i) => {
    if (ts === null) return;
    // First run length whose tail is strictly greater than ts: equal timestamps may follow each other.
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (times[tails[mid]!]! <= ts) lo = mid + 1;
      else hi = mid;
    }
    previous[i] = lo > 0 ? tails[lo - 1]! : -1;
    tails[lo] = i;
  });
  const marked = new Array<boolean>(times.length).fill(false);
  for (let i = tails.length > 0 ? tails[tails.length - 1]! : -1; i !== -1; i = previous[i]!) marked[i] = true;
  return marked;
}
