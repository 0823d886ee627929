import type { TelemetryEvent } from '../protocol/envelope.js';
import { plural, result, round4, type ComponentResult } from './explain.js';
import type { ScoringParameters } from './scoring-policy.js';

/**
 * Coverage: how much the telemetry shows of the run. Half from the event count, saturating
 * logarithmically (the first events say the most; the tenth adds less than the second), half
 * from topic diversity (a proof with pose, joints and safety state shows more than one topic
 * repeated):
 *
 *   events = min(1, ln(1 + n) / ln(1 + targetEvents))
 *   topics = min(1, distinctTopics / targetTopics)
 *   coverage = (events + topics) / 2
 */
export function coverage(events: readonly TelemetryEvent[], p: ScoringParameters, explain = true): ComponentResult {
  const n = events.length;
  const topics = new Set(events.map((e) => e.topic)).size;
  const eventPart = Math.min(1, Math.log1p(n) / Math.log1p(p.targetEvents));
  const topicPart = Math.min(1, topics / p.targetTopics);
  if (!explain) return result(n === 0 ? 0 : (eventPart + topicPart) / 2, '');
  const need = `full coverage needs ${plural(p.targetEvents, 'event')} and ${plural(p.targetTopics, 'topic')}`;
  if (n === 0) return result(0, `no events; ${need}`);
  return result(
    (eventPart + topicPart) / 2,
    `${plural(n, 'event')} across ${plural(topics, 'topic')} (event credit ${round4(eventPart)}, topic credit ${round4(topicPart)}); ${need}`,
  );
}

/**
 * Safety: the share of events reporting success, among the events that report at all
 * (`data.ok` is a boolean). Events without `ok` are left out rather than counted as failures:
 * many topics (pose, joint state) have no notion of success.
 */
export function safety(events: readonly TelemetryEvent[], p: ScoringParameters, explain = true): ComponentResult {
  let reporting = 0;
  let ok = 0;
  for (const event of events) {
    const flag = event.data.ok;
    if (typeof flag !== 'boolean') continue;
    reporting++;
    if (flag) ok++;
  }
  if (!explain) return result(reporting === 0 ? p.safetyWithoutOk : ok / reporting, '');
  if (reporting === 0) {
    return result(p.safetyWithoutOk, `no event carries a boolean data.ok, so safety takes the neutral value ${p.safetyWithoutOk}`);
  }
  const failed = reporting - ok;
  const skipped = events.length - reporting;
  return result(
    ok / reporting,
    `${ok} of ${plural(reporting, 'event')} with data.ok report ok` +
      (failed > 0 ? `, ${failed} report a failure` : '') +
      (skipped > 0 ? `; ${plural(skipped, 'event')} without data.ok not counted` : ''),
  );
}
