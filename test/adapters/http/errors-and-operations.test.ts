import test from 'ava';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as ioTs from 'io-ts';
import { documented } from '../../../src/adapters/http/openapi/codec-schema.js';
import type { JsonObject } from '../../../src/domain/protocol/envelope.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { openApiConformance } from '../../support/openapi-conformance.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startTestRegistry({ env: { BODY_LIMIT_BYTES: '4096' } });
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

test('every +json media type is read as JSON; other types are 415', async (t) => {
  for (const type of ['application/json; charset=utf-8', 'application/merge-patch+json', 'application/vnd.api+json', 'APPLICATION/JSON']) {
    const res = await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { task_id: 'none-such' }, { 'content-type': type });
    t.is(res.status, 200, type);
  }
  // Read, not dropped: a member of the body is checked.
  const checked = await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { limit: 0 }, { 'content-type': 'application/merge-patch+json' });
  t.is(checked.status, 422);
  for (const type of ['text/json', 'text/plain', 'application/x-www-form-urlencoded']) {
    const res = await registry.call(WALLET_A, 'POST', '/v1/proofs/search', { task_id: 'x' }, { 'content-type': type });
    t.is(res.status, 415, type);
    t.is(res.body.code, 'unsupported_media_type');
  }
});

test('credentials are checked before the body is read', async (t) => {
  const malformed = await registry.call(null, 'POST', '/v1/proofs', '{"envelope": ');
  t.is(malformed.status, 401);
  const oversized = await registry.call(null, 'POST', '/v1/proofs', JSON.stringify({ envelope: 'x'.repeat(10_000) }));
  t.is(oversized.status, 401);
  const wrongType = await registry.call(null, 'POST', '/v1/proofs', 'envelope=1', { 'content-type': 'text/plain' });
  t.is(wrongType.status, 401);
});

test('errors raised outside the routes carry a code too', async (t) => {
  const unknown = await registry.call(null, 'GET', '/v1/nothing-here');
  t.deepEqual([unknown.status, unknown.body.code], [404, 'not_found']);
  // Paths are case-sensitive: /V1/proofs is no route, not /v1/proofs.
  const upper = await registry.call(WALLET_A, 'GET', '/V1/proofs');
  t.deepEqual([upper.status, upper.body.code], [404, 'not_found']);
  const method = await registry.call(WALLET_A, 'DELETE', '/v1/verify');
  t.deepEqual([method.status, method.body.code], [405, 'method_not_allowed']);
  const malformed = await registry.call(WALLET_A, 'POST', '/v1/proofs', '{"envelope": ');
  t.deepEqual([malformed.status, malformed.body.code], [400, 'malformed_json']);
  const large = await registry.call(WALLET_A, 'POST', '/v1/proofs', JSON.stringify({ envelope: 'x'.repeat(10_000) }));
  t.deepEqual([large.status, large.body.code], [413, 'body_too_large']);
});

/** Writes raw bytes to the registry and reads until the server closes: status, headers and body. */
async function rawExchange(bytes: string): Promise<{ status: number; headers: string; body: string }> {
  const url = new URL(registry.url);
  const socket = connect(Number(url.port), url.hostname);
  socket.write(bytes);
  let text = '';
  for await (const chunk of socket) text += (chunk as Buffer).toString('latin1');
  const [head, body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head ?? '')?.[1]), headers: head ?? '', body };
}

test('a method the routes do not take is 405 with Allow, also one no route takes anywhere', async (t) => {
  for (const method of ['TRACE', 'PROPFIND', 'PURGE']) {
    const res = await rawExchange(`${method} /v1/proofs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`);
    t.is(res.status, 405, method);
    t.regex(res.headers, /\r\nallow: [A-Z, ]*POST/i, method);
    t.deepEqual(JSON.parse(res.body), {
      detail: `${method} is not allowed on /v1/proofs (allowed: ${/\r\nallow: ([^\r]*)/i.exec(res.headers)![1]})`,
      code: 'method_not_allowed',
    });
  }
  const unknownPath = await rawExchange('TRACE /v1/nothing-here HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
  t.is(unknownPath.status, 404);
});

test('CONNECT is answered like any other method, and the connection ends', async (t) => {
  const route = await rawExchange('CONNECT /v1/proofs HTTP/1.1\r\nHost: x\r\n\r\n');
  t.is(route.status, 405);
  t.is(JSON.parse(route.body).code, 'method_not_allowed');
  const authority = await rawExchange('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n');
  t.is(authority.status, 404);
  t.is(JSON.parse(authority.body).code, 'not_found');
});

test('requests the HTTP parser cannot read still get a JSON detail', async (t) => {
  const unknownMethod = await rawExchange('FOO /v1/proofs HTTP/1.1\r\nHost: x\r\n\r\n');
  t.is(unknownMethod.status, 400);
  t.deepEqual(JSON.parse(unknownMethod.body), { detail: 'malformed HTTP request: "FOO" is not an HTTP method this server reads', code: 'bad_request' });
  const longUrl = await rawExchange(`GET /${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
  t.is(longUrl.status, 431);
  t.is(JSON.parse(longUrl.body).code, 'headers_too_large');
  const garbage = await rawExchange('\u0001\u0002 not http\r\n\r\n');
  t.is(garbage.status, 400);
  t.is(JSON.parse(garbage.body).detail, 'malformed HTTP request');
  // The server goes on serving.
  t.is((await registry.call(null, 'GET', '/health')).status, 200);
});

test('a query parameter given twice is 400 on every route, one that reads none included', async (t) => {
  for (const path of ['/health?x=1&x=2', '/v1/proofs?limit=1&limit=2', `/v1/proofs/${'a'.repeat(64)}?x=1&x=2`]) {
    const res = await registry.call(WALLET_A, 'GET', path);
    t.is(res.status, 400, path);
    t.is(res.body.code, 'bad_query');
  }
  t.is((await registry.call(null, 'GET', '/health?x=1')).status, 200);
});

test('OPTIONS lists the methods of the path it is asked about', async (t) => {
  const search = await fetch(`${registry.url}/v1/proofs/search`, { method: 'OPTIONS' });
  t.is(search.status, 200);
  t.is(search.headers.get('allow'), 'POST');
  const list = await fetch(`${registry.url}/v1/proofs`, { method: 'OPTIONS' });
  t.deepEqual(list.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD', 'POST']);
  const one = await fetch(`${registry.url}/v1/proofs/${'a'.repeat(64)}`, { method: 'OPTIONS' });
  t.deepEqual(one.headers.get('allow')?.split(', ').sort(), ['GET', 'HEAD']);
});

test('every response carries a request id; a sane client id is echoed', async (t) => {
  const mine = await registry.call(null, 'GET', '/health', undefined, { 'x-request-id': 'abc-123' });
  t.is(mine.headers.get('x-request-id'), 'abc-123');
  const generated = await registry.call(null, 'GET', '/health', undefined, { 'x-request-id': 'bad id with spaces' });
  t.regex(generated.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('malformed JSON is 400 with a detail', async (t) => {
  const res = await registry.call(WALLET_A, 'POST', '/v1/proofs', '{"envelope": ');
  t.is(res.status, 400);
  t.regex(res.body.detail, /JSON/);
});

test('a body that is not JSON is 415', async (t) => {
  const res = await registry.call(WALLET_A, 'POST', '/v1/proofs', 'envelope=1', { 'content-type': 'text/plain' });
  t.is(res.status, 415);
  t.regex(res.body.detail, /JSON/);
});

test('a body over the limit is 413', async (t) => {
  const res = await registry.call(WALLET_A, 'POST', '/v1/verify', { envelope: { pad: 'x'.repeat(5000) } });
  t.is(res.status, 413);
  t.regex(res.body.detail, /too large/);
});

test('an unknown route is 404 and a wrong method 405 with Allow', async (t) => {
  const missing = await registry.call(WALLET_A, 'GET', '/v1/nothing');
  t.is(missing.status, 404);
  t.is(typeof missing.body.detail, 'string');
  const wrong = await registry.call(WALLET_A, 'DELETE', '/v1/proofs');
  t.is(wrong.status, 405);
  t.regex(wrong.headers.get('allow') ?? '', /GET/);
  t.regex(wrong.headers.get('allow') ?? '', /POST/);
  t.is(typeof wrong.body.detail, 'string');
});

test('credentials: missing → 401, invalid → 401, no wallet header → 401, other wallet → 403', async (t) => {
  const none = await registry.call(null, 'GET', '/v1/proofs');
  t.is(none.status, 401);
  t.regex(none.body.detail, /missing credential/);
  const invalid = await registry.call(null, 'GET', '/v1/proofs', undefined, { authorization: 'Bearer nope', 'x-wallet-address': WALLET_A });
  t.is(invalid.status, 401);
  t.regex(invalid.body.detail, /invalid API key/);
  const noWallet = await registry.call(null, 'GET', '/v1/proofs', undefined, { authorization: `Bearer test:${WALLET_A}` });
  t.is(noWallet.status, 401);
  const mismatch = await registry.call(null, 'GET', '/v1/proofs', undefined, { authorization: `Bearer test:${WALLET_A}`, 'x-wallet-address': WALLET_B });
  t.is(mismatch.status, 403);
});

test('deeply nested JSON is refused as a limit, not a crash', async (t) => {
  let deep: unknown = {};
  for (let i = 0; i < 40; i++) deep = { d: deep };
  const envelope = anEnvelope();
  const res = await registry.call(WALLET_A, 'POST', '/v1/verify', { envelope: { ...envelope, payload: { ...envelope.payload, meta: deep } } });
  t.is(res.status, 200);
  t.false(res.body.valid);
  t.regex(res.body.reason, /nested/);
});

test('a JSON body of the wrong kind is 422 saying what it must be', async (t) => {
  const res = await registry.call(WALLET_A, 'POST', '/v1/proofs/search', '[1]');
  t.is(res.status, 422);
  t.is(res.body.detail, 'request body must be an object (got an array)');
});

test('well-formed JSON that is not an object is 422 naming its kind, on every body route', async (t) => {
  for (const [text, kind] of [
    ['null', 'null'],
    ['"text"', 'string'],
    ['5', 'number'],
    ['true', 'boolean'],
  ] as const) {
    for (const path of ['/v1/proofs', '/v1/verify', '/v1/proofs/search']) {
      const res = await registry.call(WALLET_A, 'POST', path, text);
      t.is(res.status, 422, `${path} ${text}`);
      t.regex(res.body.detail, new RegExp(`must be an object \\(got ${kind}`), `${path} ${text}`);
    }
    // Score takes one of two bodies, and says so.
    const score = await registry.call(WALLET_A, 'POST', '/v1/score', text);
    t.is(score.status, 422);
    t.regex(score.body.detail, /needs proof_id .* or envelope/);
  }
  // Zero bytes sent as JSON are not JSON text; a request with no body at all has its members missing.
  const empty = await registry.call(WALLET_A, 'POST', '/v1/proofs', '');
  t.is(empty.status, 400);
  t.is(empty.body.code, 'malformed_json');
  t.regex(empty.body.detail, /body is empty/);
  const none = await fetch(`${registry.url}/v1/proofs`, { method: 'POST', headers: authHeaders(WALLET_A) });
  t.is(none.status, 422);
  t.regex(((await none.json()) as { detail: string }).detail, /envelope is required/);
  // Malformed JSON stays a 400.
  const broken = await registry.call(WALLET_A, 'POST', '/v1/proofs', '{"envelope": ');
  t.is(broken.status, 400);
});

test('a signed envelope with "__proto__" members is stored and read back as sent, polluting nothing', async (t) => {
  const meta = JSON.parse('{"__proto__": {"polluted": true}, "site": "berlin"}') as JsonObject;
  const events = [{ ts: '2026-11-20T09:59:00Z', topic: 'nav/pose', data: JSON.parse('{"__proto__": {"ok": false}, "ok": true}') as JsonObject }];
  const envelope = anEnvelope({ taskId: 'proto-members', meta, events });
  const text = JSON.stringify({ envelope });
  t.true(text.includes('"__proto__":{"polluted":true}'));

  const verified = await registry.call(WALLET_A, 'POST', '/v1/verify', text);
  t.is(verified.status, 200);
  t.true(verified.body.valid, String(verified.body.reason));
  const stored = await registry.call(WALLET_A, 'POST', '/v1/proofs', text);
  t.is(stored.status, 200, stored.body.detail);
  t.is(stored.body.proof_id, envelope.payload.payload_hash);
  const read = await fetch(`${registry.url}/v1/proofs/${stored.body.proof_id}`, { headers: authHeaders(WALLET_A) }).then((r) => r.text());
  t.true(read.includes(JSON.stringify(envelope)), 'the stored envelope is the one sent, __proto__ members included');
  t.is(({} as Record<string, unknown>).polluted, undefined);
  t.is(Object.getPrototypeOf(JSON.parse(read).envelope.payload.meta), Object.prototype);
});

test('a body over the limit of unknown length closes the connection; one of a declared length is read to its end and the connection kept', async (t) => {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  t.teardown(() => agent.destroy());
  const send = (body: string | null, chunked: boolean) =>
    new Promise<{ status: number; connection: string | undefined; reused: boolean }>((resolve, reject) => {
      const req = httpRequest(`${registry.url}/v1/proofs/search`, {
        method: 'POST',
        agent,
        headers: {
          ...authHeaders(WALLET_A),
          'content-type': 'application/json',
          ...(chunked ? { 'transfer-encoding': 'chunked' } : { 'content-length': String(Buffer.byteLength(body ?? '')) }),
        },
      });
      req.on('response', (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, reused: req.reusedSocket }));
      });
      req.on('error', reject);
      if (body !== null) for (let i = 0; i < body.length; i += 16_384) req.write(body.slice(i, i + 16_384));
      req.end();
    });
  const big = await send(JSON.stringify({ text: 'x'.repeat(300_000) }), true);
  t.is(big.status, 413);
  t.is(big.connection, 'close');
  const next = await send(JSON.stringify({ limit: 1 }), false);
  t.is(next.status, 200);
  t.false(next.reused);

  // Content-Length declared: the whole body is read before the 413, so the client is never
  // reset while still sending, and the next request goes on the same connection.
  const declared = await send(JSON.stringify({ text: 'x'.repeat(3_000_000) }), false);
  t.is(declared.status, 413);
  t.not(declared.connection, 'close');
  const after = await send(JSON.stringify({ limit: 1 }), false);
  t.is(after.status, 200);
  t.true(after.reused);
});

test('GET on the search path is 405 with Allow: POST, not a lookup of a proof called "search"', async (t) => {
  const res = await registry.call(WALLET_A, 'GET', '/v1/proofs/search');
  t.is(res.status, 405);
  t.is(res.headers.get('allow'), 'POST');
  t.regex(res.body.detail, /GET is not allowed on \/v1\/proofs\/search/);
});

test('a query string with a broken percent-escape is 400', async (t) => {
  for (const query of ['task_id=%ZZ', '%ZZ=1', 'task_id=abc%', 'robot_id=%C3%28']) {
    const res = await registry.call(WALLET_A, 'GET', `/v1/proofs?${query}`);
    t.is(res.status, 400, query);
    t.regex(res.body.detail, /malformed query string/, query);
  }
  const fine = await registry.call(WALLET_A, 'GET', '/v1/proofs?task_id=a%20b+c%2B');
  t.is(fine.status, 200);
});
