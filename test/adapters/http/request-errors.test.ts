import test from 'ava';
import { connect } from 'node:net';
import { WALLET_A, WALLET_B } from '../../support/mothers.js';
import type { TestRegistry } from '../../support/registry.js';
import { startLimitedRegistry } from './limited-registry.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startLimitedRegistry();
});
test.after.always(async () => registry?.close());

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
