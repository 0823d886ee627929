import { parseRfc3339 } from '../protocol/datetime.js';
import type { ProofEnvelope } from '../protocol/envelope.js';
import { clamp01, round4, type ComponentResult } from './explain.js';
import type { ProofScore } from './proof-score.js';
import { COMPONENTS, DEFAULT_POLICY, policyId, validatePolicy, type ComponentName, type ScoringPolicy } from './scoring-policy.js';
import { coverage, safety } from './telemetry-components.js';
import { freshness, temporal } from './time-components.js';

/**
 * Scores a proof under a policy: each component in [0, 1] with a reason, and their weighted
 * sum. Pure and deterministic: `nowMs` comes from the caller's Clock, so the same envelope at
 * the same instant always scores the same.
 *
 * The score says how much a proof shows, not whether it is genuine: only verified envelopes
 * should be scored. An unverifiable field (an unparseable created_at) scores 0 where it
 * matters rather than throwing, so scoring is total.
 *
 * Throws a RangeError for an invalid policy: that is a configuration error, caught once at
 * start-up with `validatePolicy`, not a property of the proof.
 */
export function scoreProof(envelope: ProofEnvelope, nowMs: number, policy: ScoringPolicy = DEFAULT_POLICY): ProofScore {
  assertValidPolicy(policy);
  const parts = components(envelope, nowMs, policy, true);
  return {
    score: weightedSum(parts, policy),
    components: Object.fromEntries(COMPONENTS.map((name) => [name, parts[name].value])),
    reasons: Object.fromEntries(COMPONENTS.map((name) => [name, parts[name].reason])),
    policy: policyId(policy),
  };
}

/**
 * The score alone under a policy checked once, here: `scoreProof(envelope, nowMs, policy).score`
 * without writing the reasons, for a caller that keeps only the number (a submission stores it).
 */
export function scoreUnder(policy: ScoringPolicy): (envelope: ProofEnvelope, nowMs: number) => number {
  assertValidPolicy(policy);
  return (envelope, nowMs) => weightedSum(components(envelope, nowMs, policy, false), policy);
}

function assertValidPolicy(policy: ScoringPolicy): void {
  const problem = validatePolicy(policy);
  if (problem !== null) throw new RangeError(`invalid scoring policy ${policyId(policy)}: ${problem}`);
}

/** Each component's value and, with `explain`, its reason (else ''). */
function components(envelope: ProofEnvelope, nowMs: number, policy: ScoringPolicy, explain: boolean): Record<ComponentName, ComponentResult> {
  if (!Number.isFinite(nowMs)) throw new RangeError(`nowMs must be a finite epoch time (got ${nowMs})`);
  const payload = envelope.payload;
  const events = payload.telemetry_normalized.events;
  const createdAtMs = parseRfc3339(payload.created_at);
  const p = policy.parameters;
  return {
    coverage: coverage(events, p, explain),
    safety: safety(events, p, explain),
    temporal: temporal(events, createdAtMs, nowMs, p, explain),
    freshness: freshness(createdAtMs, nowMs, p, explain),
  };
}

/** The sum is taken over the rounded components, so anyone can redo it from the response. */
function weightedSum(parts: Record<ComponentName, ComponentResult>, policy: ScoringPolicy): number {
  let total = 0;
  for (const name of COMPONENTS) total += policy.weights[name] * parts[name].value;
  return round4(clamp01(total));
}
