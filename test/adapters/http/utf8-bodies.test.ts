import test from 'ava';
import { request } from 'node:http';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';

let registry: TestRegistry;
test.before(async () => {
  registry = await startTestRegistry();
});
test.after.always(async () => registry?.close());

/**
 * POSTs `parts` as the body, one write each, so the server reads them as separate chunks: the
 * registry runs in this process, and after a write has gone out, two turns of the event loop
 * include a poll phase that reads it before the next part is written.
 */
function post(
  path: string,
  parts: readonly Buffer[],
  headers: Record<string, string> = {},
): Promise<{ status: number; body: { detail?: string; code?: string; proof_id?: string } }> {
  const { hostname, port } = new URL(registry.url);
  const length = parts.reduce((n, p) => n + p.length, 0);
  return new Promise((resolve, reject) => {
    const req = request(
      { hostname, port, path, method: 'POST', headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json', 'content-length': length, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as never }));
      },
    );
    req.on('error', reject);
    void (async () => {
      for (const part of parts) {
        await new Promise<void>((written) => req.write(part, () => written()));
        for (let turn = 0; turn < 2; turn++) await new Promise((r) => setImmediate(r));
      }
      req.end();
    })();
  });
}

/** The body `{"envelope": …}` with `extra` (raw bytes) as the value of an unsigned top-level member of the envelope. */
function withUnsignedBytes(taskId: string, extra: Buffer): Buffer {
  const text = JSON.stringify({ envelope: { ...anEnvelope({ taskId }), note: 'MARK' } });
  const [before, after] = text.split('MARK') as [string, string];
  return Buffer.concat([Buffer.from(before), extra, Buffer.from(after)]);
}

test('a body that is not valid UTF-8 is 400 and stores nothing', async (t) => {
  for (const [name, bytes] of [
    ['a lone continuation byte', Buffer.from([0x80])],
    ['a truncated sequence', Buffer.from([0xe2, 0x82])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['Latin-1', Buffer.from('café', 'latin1')],
  ] as const) {
    const res = await post('/v1/proofs', [withUnsignedBytes(`not-utf8-${name}`, bytes)]);
    t.is(res.status, 400, name);
    t.is(res.body.code, 'malformed_json', name);
    t.regex(res.body.detail ?? '', /not valid UTF-8/, name);
    const listed = await registry.call(WALLET_A, 'GET', `/v1/proofs?task_id=${encodeURIComponent(`not-utf8-${name}`)}`);
    t.deepEqual(listed.body.items, [], name);
  }
});

test('valid UTF-8 is read as sent, a character split between two chunks and U+FFFD itself included', async (t) => {
  const body = withUnsignedBytes('utf8-split', Buffer.from('€ and \uFFFD', 'utf8'));
  const at = body.indexOf(Buffer.from('€')) + 1; // inside the three bytes of €
  const res = await post('/v1/proofs', [body.subarray(0, at), body.subarray(at)]);
  t.is(res.status, 200, JSON.stringify(res.body));
  const got = await registry.call(WALLET_A, 'GET', `/v1/proofs/${res.body.proof_id}`);
  t.is(got.body.envelope.note, '€ and \uFFFD');
});

test('the check covers every JSON route, not only submissions', async (t) => {
  const res = await post('/v1/verify', [withUnsignedBytes('verify-not-utf8', Buffer.from([0xff]))]);
  t.is(res.status, 400);
  t.is(res.body.code, 'malformed_json');
});

const COMPRESSIONS = [
  ['gzip', gzipSync],
  ['deflate', deflateSync],
  ['br', brotliCompressSync],
] as const;

test('a compressed body is checked as the text it inflates to', async (t) => {
  for (const [encoding, compress] of COMPRESSIONS) {
    const bad = await post('/v1/proofs', [compress(withUnsignedBytes(`compressed-not-utf8-${encoding}`, Buffer.from([0xe2, 0x82])))], {
      'content-encoding': encoding,
    });
    t.is(bad.status, 400, encoding);
    t.regex(bad.body.detail ?? '', /not valid UTF-8/, encoding);
    const listed = await registry.call(WALLET_A, 'GET', `/v1/proofs?task_id=compressed-not-utf8-${encoding}`);
    t.deepEqual(listed.body.items, [], encoding);

    const body = compress(withUnsignedBytes(`compressed-${encoding}`, Buffer.from('€ and \uFFFD', 'utf8')));
    const at = Math.floor(body.length / 2);
    const good = await post('/v1/proofs', [body.subarray(0, at), body.subarray(at)], { 'content-encoding': encoding });
    t.is(good.status, 200, `${encoding}: ${JSON.stringify(good.body)}`);
    const got = await registry.call(WALLET_A, 'GET', `/v1/proofs/${good.body.proof_id}`);
    t.is(got.body.envelope.note, '€ and \uFFFD', encoding);
  }
});

test('a compressed body that does not inflate or inflates past the limit, or an unknown encoding, is refused', async (t) => {
  const truncated = gzipSync(withUnsignedBytes('compressed-truncated', Buffer.from('ok')));
  const res = await post('/v1/proofs', [truncated.subarray(0, truncated.length - 12)], { 'content-encoding': 'gzip' });
  t.is(res.status, 400, JSON.stringify(res.body));
  for (const coding of ['zstd', 'gzip, identity']) {
    const unknown = await post('/v1/proofs', [withUnsignedBytes('compressed-unknown', Buffer.from('ok'))], { 'content-encoding': coding });
    t.is(unknown.status, 415, JSON.stringify(unknown.body));
    t.is(unknown.body.code, 'unsupported_media_type');
    t.regex(unknown.body.detail ?? '', /Content-Encoding .* is not supported/);
  }
  // The limit (1 MiB here) counts the inflated text: 2 MB of whitespace gzip to 2 KB.
  const inflatesPastLimit = gzipSync(Buffer.concat([Buffer.from('{"envelope": '), Buffer.alloc(2_000_000, 0x20), Buffer.from('{}}')]));
  const big = await post('/v1/proofs', [inflatesPastLimit], { 'content-encoding': 'gzip' });
  t.is(big.status, 413, JSON.stringify(big.body));
  for (const taskId of ['compressed-truncated', 'compressed-unknown']) {
    const listed = await registry.call(WALLET_A, 'GET', `/v1/proofs?task_id=${taskId}`);
    t.deepEqual(listed.body.items, [], taskId);
  }
});

test('content codings are case-insensitive', async (t) => {
  for (const coding of ['GZIP', ' Gzip ', 'Identity']) {
    const body = withUnsignedBytes(`coding-${coding.trim()}`, Buffer.from('ok'));
    const res = await post('/v1/proofs', [coding.trim().toLowerCase() === 'gzip' ? gzipSync(body) : body], { 'content-encoding': coding });
    t.is(res.status, 200, `${coding}: ${JSON.stringify(res.body)}`);
  }
});
