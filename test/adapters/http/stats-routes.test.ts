import test from 'ava';
import { isRight } from 'fp-ts/lib/Either.js';
import { ContainerModule } from 'inversify';
import { pino } from 'pino';
import { StatsResponse } from '../../../src/adapters/http/codecs/fleet.codecs.js';
import { IDENTITY } from '../../../src/composition/identity.tokens.js';
import { startRegistry } from '../../../src/composition/root.js';
import { loadConfig } from '../../../src/config.js';
import { anEnvelope, twoKilobyteEvents } from '../../support/mothers.js';
import { clockAt, inlineVerification, testAccess } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';

const NOW = '2026-11-20T10:30:00Z';
const DAY = 86_400_000;
const A = 'StatsWalletA111111111111111111111111111111111';
const B = 'StatsWalletB111111111111111111111111111111111';
const usage: Record<string, { requests: number; errors: number }> = { [A]: { requests: 40, errors: 3 } };

// The real registry, with the identity module's key usage replaced by a fixed fake.
const fixedUsage = new ContainerModule(({ rebind }) => {
  rebind(IDENTITY.KeyUsageTotals).toConstantValue({ totals: async (w: string) => usage[w] ?? { requests: 0, errors: 0 } });
});
const started = startRegistry(loadConfig({ DATABASE_URL: 'sqlite::memory:', PORT: '0', LOG_LEVEL: 'silent' }), {
  logger: pino({ level: 'silent' }),
  overrides: [testAccess, inlineVerification, clockAt({ nowMs: () => Date.parse(NOW) }), fixedUsage],
});
test.after.always(async () => (await started).close());

const call = async (wallet: string, method: string, path: string, body?: unknown) => {
  const res = await fetch((await started).url + path, {
    method,
    headers: { ...authHeaders(wallet), ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
};

test("a wallet's statistics: proof windows, devices, groups, score and key usage", async (t) => {
  const ago = (ms: number) => new Date(Date.parse(NOW) - ms).toISOString();
  const created = [ago(10 * DAY), ago(3 * DAY), ago(2 * DAY), ago(DAY - 60_000), ago(60_000)];
  for (const [i, createdAt] of created.entries()) {
    const envelope = anEnvelope({ taskId: `st-${i}`, robotId: i < 3 ? 'arm' : 'cam', createdAt, events: twoKilobyteEvents(createdAt, i) });
    t.is((await call(A, 'POST', '/v1/proofs', { envelope })).status, 200);
  }
  await call(A, 'POST', '/v1/fleet/devices/arm/health', { status: 'error' });
  await call(A, 'POST', '/v1/fleet/groups', { name: 'g1' });
  await call(B, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'b', robotId: 'b-bot' }) });

  const res = await call(A, 'GET', `/v1/stats/wallet/${A}`);
  t.is(res.status, 200);
  t.true(isRight(StatsResponse.decode(res.body)), JSON.stringify(res.body));
  t.deepEqual(res.body['proofs'], {
    total: 5,
    last_24h: 2,
    last_7d: 4,
    first_at: new Date(created[0]!).toISOString(),
    last_at: new Date(created[4]!).toISOString(),
    basis: 'created_at of each proof (payload.created_at)',
  });
  t.deepEqual(res.body['devices'], { total: 2, by_status: { online: 1, warning: 0, offline: 0, degraded: 0, error: 1 } });
  t.deepEqual(res.body['groups'], { total: 1 });
  t.deepEqual(res.body['api_keys'], { requests: 40, errors: 3, error_rate: 0.075 });
  const score = res.body['score'];
  t.is(score.sample_size, 5);
  t.is(score.sample_limit, 100);
  t.true(score.average > 0 && score.average <= 1);
  t.true(score.min <= score.average && score.average <= score.max);
  t.regex(score.basis, /100 most recent proofs/);
  t.is(typeof score.policy, 'string');
  t.is(res.body['wallet'], A);
  t.is(res.body['generated_at'], new Date(NOW).toISOString());
});

test("another wallet's statistics are refused; an unused wallet has zeros", async (t) => {
  const denied = await call(B, 'GET', `/v1/stats/wallet/${A}`);
  t.is(denied.status, 403);
  t.is(typeof denied.body['detail'], 'string');
  t.false(JSON.stringify(denied.body).includes('proofs'));
  const empty = 'StatsWalletEmpty111111111111111111111111111';
  const res = await call(empty, 'GET', `/v1/stats/wallet/${empty}`);
  t.is(res.status, 200);
  t.like(res.body, {
    proofs: { total: 0, last_24h: 0, last_7d: 0, first_at: null, last_at: null },
    devices: { total: 0 },
    groups: { total: 0 },
    score: { average: null, min: null, max: null, sample_size: 0 },
    api_keys: { requests: 0, errors: 0, error_rate: null },
  });
});
