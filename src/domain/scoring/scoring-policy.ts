/**
 * A scoring policy: the weights of the four components and the parameters each one uses.
 * It is named and versioned because a score means nothing without the rules that made it:
 * any change to a weight or parameter must ship as a new version, so stored scores stay
 * comparable with those computed under the same `name/version`.
 */
export const COMPONENTS = ['coverage', 'safety', 'temporal', 'freshness'] as const;
export type ComponentName = (typeof COMPONENTS)[number];

export type ScoringWeights = Readonly<Record<ComponentName, number>>;

export interface ScoringParameters {
  /** Events needed for full event credit; credit grows as ln(1 + n) / ln(1 + target). */
  readonly targetEvents: number;
  /** Distinct topics needed for full diversity credit; credit is min(1, topics / target). */
  readonly targetTopics: number;
  /** Safety when no event carries a boolean `data.ok`: no evidence either way. */
  readonly safetyWithoutOk: number;
  /** Temporal value of an empty event list: nothing to order, nothing to contradict. */
  readonly temporalWithoutEvents: number;
  /** How much earlier than created_at an event may be and still belong to the run. */
  readonly eventWindowMs: number;
  /** How much later than created_at an event may be (devices stamp created_at at signing). */
  readonly eventGraceMs: number;
  /** Clock skew forgiven between a device and this registry. */
  readonly clockSkewMs: number;
  /** Age up to which a proof is fully fresh. */
  readonly freshForMs: number;
  /** Age at which freshness reaches 0; it falls linearly from freshForMs to here. */
  readonly staleAfterMs: number;
}

export interface ScoringPolicy {
  readonly name: string;
  readonly version: number;
  readonly weights: ScoringWeights;
  readonly parameters: ScoringParameters;
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

export const DEFAULT_POLICY: ScoringPolicy = {
  name: 'registry-default',
  version: 1,
  weights: { coverage: 0.3, safety: 0.3, temporal: 0.25, freshness: 0.15 },
  parameters: {
    targetEvents: 10,
    targetTopics: 3,
    safetyWithoutOk: 0.5,
    temporalWithoutEvents: 0.5,
    eventWindowMs: DAY,
    eventGraceMs: 5 * MINUTE,
    clockSkewMs: 5 * MINUTE,
    freshForMs: HOUR,
    staleAfterMs: 30 * DAY,
  },
};

/** "registry-default/1": what a ProofScore records as its policy. */
export const policyId = (policy: ScoringPolicy): string => `${policy.name}/${policy.version}`;

/** Weights may differ from 1 by rounding in their decimal form, no more. */
const WEIGHT_SUM_TOLERANCE = 1e-9;

/**
 * Why a policy cannot be used, or null when it can. Checked before scoring because a bad
 * policy would silently produce scores outside [0, 1] or divide by zero.
 */
export function validatePolicy(policy: ScoringPolicy): string | null {
  if (!/^[a-z0-9][a-z0-9._-]*$/.test(policy.name)) return `policy name ${JSON.stringify(policy.name)} must be lower-case letters, digits, ".", "_" or "-"`;
  if (!Number.isInteger(policy.version) || policy.version < 1) return `policy version must be a positive integer (got ${policy.version})`;
  let sum = 0;
  for (const name of COMPONENTS) {
    const w = policy.weights[name];
    if (typeof w !== 'number' || !Number.isFinite(w) || w < 0) return `weight ${name} must be a finite number ≥ 0 (got ${String(w)})`;
    sum += w;
  }
  const extra = Object.keys(policy.weights).find((k) => !(COMPONENTS as readonly string[]).includes(k));
  if (extra !== undefined) return `unknown weight ${JSON.stringify(extra)}; components are ${COMPONENTS.join(', ')}`;
  if (Math.abs(sum - 1) > WEIGHT_SUM_TOLERANCE) return `weights must sum to 1 (got ${sum})`;
  return validateParameters(policy.parameters);
}

function validateParameters(p: ScoringParameters): string | null {
  const finite = (v: number): boolean => typeof v === 'number' && Number.isFinite(v);
  if (!finite(p.targetEvents) || p.targetEvents < 1) return `targetEvents must be ≥ 1 (got ${p.targetEvents})`;
  if (!finite(p.targetTopics) || p.targetTopics < 1) return `targetTopics must be ≥ 1 (got ${p.targetTopics})`;
  for (const key of ['safetyWithoutOk', 'temporalWithoutEvents'] as const) {
    if (!finite(p[key]) || p[key] < 0 || p[key] > 1) return `${key} must be in [0, 1] (got ${p[key]})`;
  }
  for (const key of ['eventWindowMs', 'eventGraceMs', 'clockSkewMs', 'freshForMs'] as const) {
    if (!finite(p[key]) || p[key] < 0) return `${key} must be a duration ≥ 0 (got ${p[key]})`;
  }
  if (!finite(p.staleAfterMs) || p.staleAfterMs <= p.freshForMs) {
    return `staleAfterMs must be greater than freshForMs (got ${p.staleAfterMs} ≤ ${p.freshForMs})`;
  }
  return null;
}
