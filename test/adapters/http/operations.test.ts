import test from 'ava';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as ioTs from 'io-ts';
import { documented } from '../../../src/adapters/http/openapi/codec-schema.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { startLimitedRegistry } from './limited-registry.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startLimitedRegistry();
});
test.after.always(async () => registry?.close());

test('GET /health answers without credentials', async (t) => {
  const res = await registry.call(null, 'GET', '/health');
  t.is(res.status, 200);
  t.deepEqual(res.body, { ok: true, service: 'proof-registry', version: 'v1' });
});

test('GET /ready answers 200 while the database does', async (t) => {
  const res = await registry.call(null, 'GET', '/ready');
  t.is(res.status, 200);
  t.true(res.body.ready);
});

test('GET /metrics is Prometheus text with request, submission and process series', async (t) => {
  await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'metrics' }) });
  await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: { payload: {} } });
  const res = await registry.call(null, 'GET', '/metrics');
  t.is(res.status, 200);
  t.regex(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  t.regex(res.body, /http_requests_total\{method="POST",route="\/v1\/proofs",status="200"\} \d+/);
  t.regex(res.body, /http_request_duration_seconds_bucket\{/);
  t.regex(res.body, /proofs_submitted_total\{outcome="stored",reason=""\} \d+/);
  t.regex(res.body, /proofs_submitted_total\{outcome="rejected",reason="MalformedEnvelope"\} \d+/);
  t.regex(res.body, /process_cpu_user_seconds_total/);
});

test('GET /metrics times each proof into the store and counts the proofs of each write transaction', async (t) => {
  const own = await startTestRegistry();
  try {
    const envelopes = Array.from({ length: 20 }, (_, i) => anEnvelope({ taskId: `store-metrics-${i}` }));
    const replies = await Promise.all([...envelopes, envelopes[0]].map((envelope) => own.call(WALLET_A, 'POST', '/v1/proofs', { envelope })));
    t.true(replies.every((r) => r.status === 200));
    const rejected = await own.call(WALLET_A, 'POST', '/v1/proofs', { envelope: { payload: {} } });
    t.is(rejected.status, 422);
    const text = (await own.call(null, 'GET', '/metrics')).body as string;
    const value = (series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1]);
    // 21 proofs reached the store (the duplicate too: the store answers it); the rejected one did not.
    t.is(value('proof_store_seconds_count'), 21);
    t.true(value('proof_store_seconds_sum') > 0);
    t.is(value('proof_write_batch_proofs_sum'), 21, 'every proof went to the database in some batch');
    const batches = value('proof_write_batch_proofs_count');
    t.true(batches >= 1 && batches <= 21, `batches: ${batches}`);
    t.regex(text, /proof_write_batch_proofs_bucket\{le="1"\} \d+/);
  } finally {
    await own.close();
  }
});

test('GET /openapi.json is a valid OpenAPI 3.1 document covering every route', async (t) => {
  const res = await registry.call(null, 'GET', '/openapi.json');
  t.is(res.status, 200);
  const validator = new Validator();
  const result = await validator.validate(res.body);
  t.true(result.valid, JSON.stringify(result.errors, null, 1)?.slice(0, 2000));
  t.is(res.body.openapi, '3.1.0');
  for (const [path, method] of [
    ['/v1/proofs', 'post'],
    ['/v1/proofs', 'get'],
    ['/v1/proofs/{proof_id}', 'get'],
    ['/v1/proofs/search', 'post'],
    ['/v1/verify', 'post'],
    ['/v1/verify/batch', 'post'],
    ['/v1/score', 'post'],
    ['/health', 'get'],
    ['/ready', 'get'],
    ['/metrics', 'get'],
  ] as const) {
    t.truthy(res.body.paths[path]?.[method], `${method} ${path}`);
  }
  const submit = res.body.paths['/v1/proofs'].post;
  t.deepEqual(submit.requestBody.content['application/json'].schema.required, ['envelope']);
  t.truthy(submit.requestBody.content['application/json'].schema.properties.envelope.properties.payload);
  // Every operation documents its 400 (a repeated query parameter is one on every route).
  for (const [path, operations] of Object.entries(res.body.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>)) {
    for (const [method, op] of Object.entries(operations)) t.truthy(op.responses['400'], `${method} ${path}`);
  }
  t.is(res.body.paths['/v1/proofs/search'].post.requestBody.content['application/json'].schema.additionalProperties, false);
});

test('real responses match the schemas the OpenAPI document gives them, formats included', async (t) => {
  const check = openApiConformance((await registry.call(null, 'GET', '/openapi.json')).body);
  const envelope = anEnvelope({ taskId: 'schema-check', robotId: 'arm-1', createdAt: '2026-11-20T12:00:00.250+02:00' });
  const stored = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope });
  const proofId = stored.body.proof_id as string;
  const calls: Array<[string, string, string, unknown?]> = [
    ['/health', 'get', '/health'],
    ['/ready', 'get', '/ready'],
    ['/v1/proofs', 'post', '/v1/proofs', { envelope }],
    ['/v1/proofs', 'post', '/v1/proofs', { envelope: { payload: {} } }],
    ['/v1/proofs', 'get', '/v1/proofs?limit=1'],
    ['/v1/proofs/{proof_id}', 'get', `/v1/proofs/${proofId}`],
    ['/v1/proofs/{proof_id}', 'get', `/v1/proofs/${'0'.repeat(64)}`],
    ['/v1/proofs/search', 'post', '/v1/proofs/search', { task_id: 'schema-check' }],
    ['/v1/proofs/search', 'post', '/v1/proofs/search', { limit: 0 }],
    ['/v1/verify', 'post', '/v1/verify', { envelope }],
    ['/v1/verify', 'post', '/v1/verify', { envelope: { ...envelope, signature_b64: 'AA==' } }],
    ['/v1/verify/batch', 'post', '/v1/verify/batch', { envelopes: [envelope, { payload: 1 }] }],
    ['/v1/score', 'post', '/v1/score', { proof_id: proofId }],
  ];
  for (const [path, method, url, body] of calls) {
    const res = await registry.call(WALLET_A, method.toUpperCase(), url, body);
    t.is(check(path, method, res.status, res.body), null);
  }
  // The check can fail: a string where the document promises a date-time does not pass.
  t.not(check('/v1/proofs', 'post', 200, { ...stored.body, received_at: 'yesterday' }), null);
});

test("documenting one of io-ts's shared codecs is refused: it would document every use of it", (t) => {
  t.throws(() => documented(ioTs.string, { type: 'string', format: 'date-time' }), { message: /codec of its own/ });
});
