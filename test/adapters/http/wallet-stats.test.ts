import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { ContainerModule } from 'inversify';
import { pino } from 'pino';
import { StatsResponse } from '../../../src/adapters/http/codecs/fleet.codecs.js';
import { defaultPolicyScorer } from '../../../src/application/proofs/default-policy-scorer.js';
import type { ProofScorer } from '../../../src/application/ports/proof-scorer.js';
import { PROOFS } from '../../../src/composition/proofs.tokens.js';
import { startRegistry } from '../../../src/composition/root.js';
import { loadConfig } from '../../../src/config.js';
import type { TelemetryEvent } from '../../../src/domain/protocol/envelope.js';
import { anEnvelope } from '../../support/mothers.js';
import { clockAt, inlineVerification, testAccess } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';

/**
 * The wallet statistics kept as things happen: proofs by robot and task, verification calls,
 * activity and the timeline; and a statistics request that scores and parses no proof, however
 * large the wallet's proofs are (counted through the scorer, not timed).
 */
const NOW = Date.parse('2026-11-20T10:30:00Z');
const DAY = 86_400_000;
let now = NOW;

/** The real scorer, counting its calls. */
let scored = 0;
const countingScorer: ProofScorer = {
  score: (envelope, atMs) => {
    scored++;
    return defaultPolicyScorer.score(envelope, atMs);
  },
};
const overrides = new ContainerModule(({ rebind }) => void rebind(PROOFS.Scorer).toConstantValue(countingScorer));
const started = startRegistry(loadConfig({ DATABASE_URL: 'sqlite::memory:', PORT: '0', LOG_LEVEL: 'silent' }), {
  logger: pino({ level: 'silent' }),
  overrides: [testAccess, inlineVerification, clockAt({ nowMs: () => now }), overrides],
});
test.after.always(async () => (await started).close());

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const call = async (wallet: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
  const res = await fetch((await started).url + path, {
    method,
    headers: { ...authHeaders(wallet), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: await res.json() };
};
const wallet = (n: number) => `WalletStats${String(n).padStart(3, '0')}${'1'.repeat(33)}`;

const manyEvents = (n: number, createdAt: string): TelemetryEvent[] =>
  Array.from({ length: n }, (_, i) => ({
    ts: new Date(Date.parse(createdAt) - n * 10 + i * 10).toISOString(),
    topic: 'joint/state',
    data: { seq: i, pos: [1.5, -0.25, i] },
  }));

test.serial("a statistics request scores and parses no proof: its work does not grow with the size of the wallet's proofs", async (t) => {
  const small = wallet(1);
  const large = wallet(2);
  const createdAt = new Date(NOW - 60_000).toISOString();
  const before = scored;
  for (let i = 0; i < 3; i++) {
    t.is((await call(small, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: `s-${i}`, robotId: 'r', createdAt }) })).status, 200);
    t.is(
      (await call(large, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: `l-${i}`, robotId: 'r', createdAt, events: manyEvents(10_000, createdAt) }) }))
        .status,
      200,
    );
  }
  // Each accepted proof was scored once, as it was received.
  t.is(scored - before, 6);
  const afterSubmissions = scored;
  const smallStats = await call(small, 'GET', `/v1/stats/wallet/${small}`);
  const largeStats = await call(large, 'GET', `/v1/stats/wallet/${large}`);
  for (let i = 0; i < 5; i++) await call(large, 'GET', `/v1/stats/wallet/${large}?days=365`);
  t.is(scored, afterSubmissions, 'no statistics request scored a proof');
  t.like(smallStats.body, { proofs_submitted: 3, score: { sample_size: 3, scored_proofs: 3 } });
  t.like(largeStats.body, { proofs_submitted: 3, score: { sample_size: 3, scored_proofs: 3 } });
  // The kept scores are the real ones: scoring the same envelope at its receipt gives them.
  t.is(largeStats.body.score.average_all, largeStats.body.score.average);
  t.true(largeStats.body.score.average_all > 0 && largeStats.body.score.average_all <= 1);
  // A duplicate is neither scored into the figures nor counted.
  await call(small, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 's-0', robotId: 'r', createdAt }) });
  t.like((await call(small, 'GET', `/v1/stats/wallet/${small}`)).body, { proofs_submitted: 3, score: { scored_proofs: 3 } });
});

test.serial('proofs by robot and task, verification calls, activity and the timeline are counted as they happen', async (t) => {
  const w = wallet(3);
  now = NOW - 2 * DAY;
  try {
    for (const [task, robot] of [
      ['weld', 'arm-1'],
      ['weld', 'arm-2'],
      ['paint', 'arm-1'],
    ] as const) {
      t.is((await call(w, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: task, robotId: robot, runId: `${task}-${robot}` }) })).status, 200);
    }
    now = NOW;
    t.is((await call(w, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'weld', robotId: 'arm-1', runId: 'today' }) })).status, 200);
    t.is((await call(w, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'inspect', runId: 'no-robot' }) })).status, 200);
    // Verification calls: one valid, one tampered; a batch of two valid and one tampered.
    const valid = anEnvelope({ taskId: 'v' });
    const tampered = { ...valid, payload: { ...valid.payload, created_at: '2026-11-20T10:00:01Z' } };
    t.true((await call(w, 'POST', '/v1/verify', { envelope: valid })).body.valid);
    const refused = await call(w, 'POST', '/v1/verify', { envelope: tampered });
    t.false(refused.body.valid, JSON.stringify(refused.body));
    const batch = await call(w, 'POST', '/v1/verify/batch', { envelopes: [valid, tampered, valid] });
    t.is(batch.body.valid_count, 2);
    // Another wallet's calls are its own.
    await call(wallet(4), 'POST', '/v1/verify', { envelope: valid });

    const res = await call(w, 'GET', `/v1/stats/wallet/${w}?days=3`);
    t.is(res.status, 200);
    t.true(isRight(StatsResponse.decode(res.body)), JSON.stringify(res.body).slice(0, 500));
    t.is(res.body.proofs_submitted, 5);
    t.deepEqual(res.body.verifications, { total: 5, successful: 3, failed: 2, success_rate: 0.6 });
    t.deepEqual(res.body.activity, {
      first_at: new Date(NOW - 2 * DAY).toISOString(),
      last_at: new Date(NOW).toISOString(),
      basis: 'registry time of each proof accepted and each verification call answered',
    });
    t.deepEqual(res.body.proofs_by_robot, [
      { robot_id: 'arm-1', proofs: 3 },
      { robot_id: 'arm-2', proofs: 1 },
    ]);
    t.deepEqual(res.body.proofs_by_task, [
      { task_id: 'weld', proofs: 3 },
      { task_id: 'inspect', proofs: 1 },
      { task_id: 'paint', proofs: 1 },
    ]);
    t.deepEqual(res.body.timeline.points, [
      { date: '2026-11-18', proofs: 3, verifications: 0 },
      { date: '2026-11-19', proofs: 0, verifications: 0 },
      { date: '2026-11-20', proofs: 2, verifications: 5 },
    ]);
    t.is(res.body.timeline.days, 3);
    // The default window is 30 days, today last.
    const month = (await call(w, 'GET', `/v1/stats/wallet/${w}`)).body.timeline.points;
    t.is(month.length, 30);
    t.is(month[29].date, '2026-11-20');
    t.is(month[0].date, '2026-10-22');
    for (const days of ['0', '366', '1.5', 'x']) t.is((await call(w, 'GET', `/v1/stats/wallet/${w}?days=${days}`)).status, 422, days);
    t.is((await call(w, 'GET', `/v1/stats/wallet/${w}?days=365`)).body.timeline.points.length, 365);
    // Another wallet's statistics stay refused.
    t.is((await call(wallet(4), 'GET', `/v1/stats/wallet/${w}`)).status, 403);
    t.like((await call(wallet(4), 'GET', `/v1/stats/wallet/${wallet(4)}`)).body, {
      proofs_submitted: 0,
      verifications: { total: 1, successful: 1, failed: 0 },
    });
  } finally {
    now = NOW;
  }
});
