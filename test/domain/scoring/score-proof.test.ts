import test from 'ava';
import fc from 'fast-check';
import type { JsonObject, TelemetryEvent } from '../../../src/domain/protocol/envelope.js';
import { scoreProof, scoreUnder } from '../../../src/domain/scoring/score-proof.js';
import { DEFAULT_POLICY, validatePolicy, type ScoringPolicy } from '../../../src/domain/scoring/scoring-policy.js';
import { inOrder } from '../../../src/domain/scoring/time-components.js';
import { anEnvelope } from '../../support/mothers.js';

const CREATED = '2026-11-20T10:00:00Z';
const CREATED_MS = Date.parse(CREATED);
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const NOW = CREATED_MS + 30 * MIN;
const TOPICS = ['nav/pose', 'joint/state', 'safety/state', 'battery', 'camera'];

/** An event `offsetMs` from created_at; `ok` left out when undefined. */
const ev = (offsetMs: number, topic = 'nav/pose', data: JsonObject = {}): TelemetryEvent => ({
  ts: new Date(CREATED_MS + offsetMs).toISOString(),
  topic,
  data,
});
const okEvents = (flags: (boolean | undefined)[]): TelemetryEvent[] =>
  flags.map((ok, i) => ev(-60_000 + i * 1000, 'nav/pose', ok === undefined ? { seq: i } : { seq: i, ok }));
const ordered = (n: number, topics = 1): TelemetryEvent[] => Array.from({ length: n }, (_, i) => ev(-n * 1000 + i * 1000, TOPICS[i % topics]!));

interface Row {
  name: string;
  events: TelemetryEvent[];
  createdAt?: string;
  now?: number;
  expect: number;
  mentions?: string[];
}

function table(component: 'coverage' | 'safety' | 'temporal' | 'freshness', rows: Row[]): void {
  for (const row of rows) {
    test(`${component}: ${row.name}`, (t) => {
      const envelope = anEnvelope({ events: row.events, createdAt: row.createdAt ?? CREATED });
      const score = scoreProof(envelope, row.now ?? NOW);
      t.is(score.components[component], row.expect);
      for (const word of row.mentions ?? []) t.true(score.reasons[component]!.includes(word), `"${score.reasons[component]}" lacks "${word}"`);
    });
  }
}

// events credit = min(1, ln(1+n)/ln(11)); topic credit = min(1, topics/3); coverage = mean.
table('coverage', [
  { name: 'no events', events: [], expect: 0, mentions: ['no events', '10 events and 3 topics'] },
  { name: 'one event, one topic', events: ordered(1), expect: 0.3112, mentions: ['1 event across 1 topic'] },
  { name: 'three events, three topics', events: ordered(3, 3), expect: 0.7891 },
  { name: 'many events, one topic', events: ordered(20, 1), expect: 0.6667, mentions: ['20 events across 1 topic'] },
  { name: 'target reached', events: ordered(10, 3), expect: 1 },
  { name: 'beyond the target saturates', events: ordered(12, 5), expect: 1, mentions: ['12 events across 5 topics'] },
]);

table('safety', [
  { name: 'no events', events: [], expect: 0.5, mentions: ['neutral value 0.5'] },
  { name: 'no event carries ok', events: okEvents([undefined, undefined]), expect: 0.5, mentions: ['no event carries'] },
  { name: 'ok that is not a boolean is not counted', events: [ev(-1000, 'a', { ok: 'true' }), ev(0, 'a', { ok: 1 })], expect: 0.5 },
  { name: 'all ok', events: okEvents([true, true, true]), expect: 1, mentions: ['3 of 3 events'] },
  { name: 'all failed', events: okEvents([false, false]), expect: 0, mentions: ['2 report a failure'] },
  {
    name: 'mixed, events without ok left out',
    events: okEvents([true, false, undefined, true, true, undefined]),
    expect: 0.75,
    mentions: ['3 of 4 events', '1 report a failure', '2 events without data.ok not counted'],
  },
]);

table('temporal', [
  { name: 'no events', events: [], expect: 0.5, mentions: ['neutral value 0.5'] },
  { name: 'ordered, inside the window', events: ordered(5), expect: 1, mentions: ['5 of 5 events consistent'] },
  { name: 'equal timestamps are in order', events: [ev(-1000), ev(-1000), ev(0)], expect: 1 },
  { name: 'one swapped pair', events: [ev(-4000), ev(-2000), ev(-3000), ev(-1000)], expect: 0.75, mentions: ['1 out of ts order'] },
  // A running-maximum rule would blame all four followers of the stray first event.
  { name: 'a stray first event costs one event', events: [ev(-1000), ev(-5000), ev(-4000), ev(-3000), ev(-2000)], expect: 0.8 },
  { name: 'reversed', events: [ev(-1000), ev(-2000), ev(-3000), ev(-4000)], expect: 0.25, mentions: ['3 out of ts order'] },
  { name: 'older than the window', events: [ev(-2 * DAY), ev(-1000)], expect: 0.5, mentions: ['1 more than 1 day before created_at'] },
  { name: 'after created_at beyond the grace', events: [ev(-1000), ev(10 * MIN)], expect: 0.5, mentions: ['1 more than 5 min after created_at'] },
  { name: 'after created_at within the grace', events: [ev(-1000), ev(4 * MIN)], expect: 1 },
  {
    name: 'in the future (counted once though it breaks two rules)',
    events: [ev(-1000), ev(0), ev(2 * HOUR)],
    expect: 0.6667,
    mentions: ['1 more than 5 min in the future', '1 more than 5 min after created_at'],
  },
  { name: 'in the future only', events: [ev(-1000), ev(0)], now: CREATED_MS - 10 * MIN, expect: 0, mentions: ['2 more than 5 min in the future'] },
  {
    name: 'unparseable ts',
    events: [ev(-1000), { ts: 'yesterday', topic: 'a', data: {} }],
    expect: 0.5,
    mentions: ['1 with an unparseable ts'],
  },
  { name: 'unparseable created_at', events: ordered(2), createdAt: '20 Nov 2026', expect: 0, mentions: ['created_at is not'] },
]);

table('freshness', [
  { name: '30 minutes old', events: [], expect: 1, mentions: ['created 30 min ago'] },
  { name: 'exactly 1 h old', events: [], now: CREATED_MS + HOUR, expect: 1 },
  { name: 'half way to stale', events: [], now: CREATED_MS + HOUR + (30 * DAY - HOUR) / 2, expect: 0.5, mentions: ['15 days ago'] },
  { name: '30 days old', events: [], now: CREATED_MS + 30 * DAY, expect: 0, mentions: ['0 at 30 days'] },
  { name: 'a year old', events: [], now: CREATED_MS + 365 * DAY, expect: 0 },
  { name: 'ahead within the skew', events: [], now: CREATED_MS - 2 * MIN, expect: 1, mentions: ['within the 5 min'] },
  { name: 'in the future beyond the skew', events: [], now: CREATED_MS - 10 * MIN, expect: 0, mentions: ['10 min in the future'] },
  { name: 'unparseable created_at', events: [], createdAt: 'soon', expect: 0, mentions: ['age is unknown'] },
]);

test('a complete, recent, successful, well-ordered proof scores 1', (t) => {
  const events = ordered(12, 3).map((e) => ({ ...e, data: { ok: true } }));
  const score = scoreProof(anEnvelope({ events }), NOW);
  t.deepEqual(score.components, { coverage: 1, safety: 1, temporal: 1, freshness: 1 });
  t.is(score.score, 1);
  t.is(score.policy, 'registry-default/1');
  t.deepEqual(Object.keys(score.reasons), ['coverage', 'safety', 'temporal', 'freshness']);
});

test('the score is the weighted sum of the shown components, rounded to 4 decimals', (t) => {
  const score = scoreProof(anEnvelope({ events: okEvents([true, false, true]) }), NOW + 3 * DAY);
  const w = DEFAULT_POLICY.weights;
  const c = score.components as Record<keyof typeof w, number>;
  const sum = w.coverage * c.coverage + w.safety * c.safety + w.temporal * c.temporal + w.freshness * c.freshness;
  t.is(score.score, Math.round(sum * 10_000) / 10_000);
  t.true(score.score > 0 && score.score < 1);
});

test('deterministic: the same envelope at the same instant scores the same', (t) => {
  const envelope = anEnvelope({ events: okEvents([true, false, undefined]) });
  t.deepEqual(scoreProof(envelope, NOW + DAY), scoreProof(structuredClone(envelope), NOW + DAY));
});

test('custom weights change the score and name their policy', (t) => {
  const envelope = anEnvelope({ events: okEvents([false, false]) });
  const coverageOnly: ScoringPolicy = {
    ...DEFAULT_POLICY,
    name: 'coverage-only',
    weights: { coverage: 1, safety: 0, temporal: 0, freshness: 0 },
  };
  const byDefault = scoreProof(envelope, NOW);
  const custom = scoreProof(envelope, NOW, coverageOnly);
  t.is(custom.score, custom.components.coverage!);
  t.not(custom.score, byDefault.score);
  t.is(custom.policy, 'coverage-only/1');
});

const withWeights = (weights: Partial<Record<string, number>>): ScoringPolicy =>
  ({ ...DEFAULT_POLICY, weights: { ...DEFAULT_POLICY.weights, ...weights } }) as ScoringPolicy;
const withParams = (parameters: Partial<ScoringPolicy['parameters']>): ScoringPolicy => ({
  ...DEFAULT_POLICY,
  parameters: { ...DEFAULT_POLICY.parameters, ...parameters },
});

const policyRows: Array<[string, ScoringPolicy, string | null]> = [
  ['the default policy', DEFAULT_POLICY, null],
  ['weights summing to 1 up to decimal rounding', withWeights({ coverage: 0.1, safety: 0.2, temporal: 0.3, freshness: 0.4 }), null],
  ['a zero weight', withWeights({ coverage: 0, safety: 0.6 }), null],
  ['weights summing to 0.9', withWeights({ coverage: 0.2 }), 'sum to 1'],
  ['weights summing to 1.1', withWeights({ coverage: 0.4 }), 'sum to 1'],
  ['a negative weight', withWeights({ coverage: -0.1, safety: 0.7 }), 'weight coverage'],
  ['a NaN weight', withWeights({ temporal: Number.NaN }), 'weight temporal'],
  ['an unknown weight', withWeights({ popularity: 0 }), 'unknown weight "popularity"'],
  ['a version 0', { ...DEFAULT_POLICY, version: 0 }, 'version'],
  ['a name with a space', { ...DEFAULT_POLICY, name: 'my policy' }, 'policy name'],
  ['a zero event target', withParams({ targetEvents: 0 }), 'targetEvents'],
  ['a neutral value above 1', withParams({ safetyWithoutOk: 1.5 }), 'safetyWithoutOk'],
  ['a negative skew', withParams({ clockSkewMs: -1 }), 'clockSkewMs'],
  ['stale before fresh', withParams({ staleAfterMs: HOUR }), 'staleAfterMs'],
];

for (const [name, policy, mentions] of policyRows) {
  test(`validatePolicy: ${name}`, (t) => {
    const problem = validatePolicy(policy);
    if (mentions === null) t.is(problem, null);
    else t.true(problem?.includes(mentions), `${problem} lacks "${mentions}"`);
  });
}

test('scoreProof refuses an invalid policy', (t) => {
  const error = t.throws(() => scoreProof(anEnvelope(), NOW, withWeights({ coverage: 0.5 })), { instanceOf: RangeError });
  t.regex(error.message, /sum to 1/);
});

test('inOrder marks one longest non-decreasing run and skips unparseable times', (t) => {
  t.deepEqual(inOrder([]), []);
  t.deepEqual(inOrder([1, 2, 2, 3]), [true, true, true, true]);
  t.deepEqual(inOrder([5, 1, 2, null, 3]), [false, true, true, false, true]);
  t.is(inOrder([3, 2, 1]).filter(Boolean).length, 1);
});

const eventArb = fc.record({
  offset: fc.integer({ min: -3 * DAY, max: 3 * DAY }),
  topic: fc.constantFrom(...TOPICS),
  ok: fc.option(fc.boolean(), { nil: undefined }),
});

test('every score and component lies in [0, 1], for any telemetry and any clock', (t) => {
  // Unsigned on purpose: scoring reads telemetry and times only, and signing every run is slow.
  const base = anEnvelope({ events: [] });
  fc.assert(
    fc.property(fc.array(eventArb, { maxLength: 40 }), fc.integer({ min: -60 * DAY, max: 60 * DAY }), (events, nowOffset) => {
      const telemetry = events.map((e) => ev(e.offset, e.topic, e.ok === undefined ? {} : { ok: e.ok }));
      const envelope = { ...base, payload: { ...base.payload, telemetry_normalized: { events: telemetry } } };
      const score = scoreProof(envelope, CREATED_MS + nowOffset);
      const values = [score.score, ...Object.values(score.components)];
      return values.every((v) => Number.isFinite(v) && v >= 0 && v <= 1 && Math.round(v * 10_000) / 10_000 === v);
    }),
    { numRuns: 500 },
  );
  t.pass();
});

test('scoreUnder gives the score scoreProof gives, for any telemetry, created_at, clock and policy', (t) => {
  const base = anEnvelope({ events: [] });
  const policies = [
    DEFAULT_POLICY,
    withWeights({ coverage: 0.1, safety: 0.2, temporal: 0.3, freshness: 0.4 }),
    withParams({ freshForMs: 0, staleAfterMs: DAY, clockSkewMs: 0 }),
  ];
  const createdAts = [CREATED, '2026-11-20T10:00:00.123+02:00', 'not a date'];
  fc.assert(
    fc.property(
      fc.array(eventArb, { maxLength: 40 }),
      fc.integer({ min: -60 * DAY, max: 60 * DAY }),
      fc.constantFrom(...policies),
      fc.constantFrom(...createdAts),
      (events, nowOffset, policy, createdAt) => {
        const telemetry = events.map((e) => ev(e.offset, e.topic, e.ok === undefined ? {} : { ok: e.ok }));
        const envelope = { ...base, payload: { ...base.payload, created_at: createdAt, telemetry_normalized: { events: telemetry } } };
        const now = CREATED_MS + nowOffset;
        return scoreUnder(policy)(envelope, now) === scoreProof(envelope, now, policy).score;
      },
    ),
    { numRuns: 1_000 },
  );
  // The edges of freshness: at fresh-for, at stale-after, and a created_at ahead of the clock.
  const envelope = anEnvelope({ events: okEvents([true]) });
  for (const now of [CREATED_MS + HOUR, CREATED_MS + 30 * DAY, CREATED_MS - 4 * MIN, CREATED_MS - 6 * MIN, CREATED_MS + 31 * DAY]) {
    t.is(scoreUnder(DEFAULT_POLICY)(envelope, now), scoreProof(envelope, now).score);
  }
});

test('scoreUnder refuses an invalid policy at once, and a clock that is not finite', (t) => {
  t.throws(() => scoreUnder(withWeights({ coverage: 0.5 })), { instanceOf: RangeError, message: /sum to 1/ });
  t.throws(() => scoreUnder(DEFAULT_POLICY)(anEnvelope(), Number.NaN), { instanceOf: RangeError });
});
