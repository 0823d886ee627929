import test from 'ava';
import { Agent, request as httpRequest } from 'node:http';
import type { JsonObject } from '../../../src/domain/protocol/envelope.js';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import type { TestRegistry } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';
import { startLimitedRegistry } from './limited-registry.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startLimitedRegistry();
});
test.after.always(async () => registry?.close());

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
