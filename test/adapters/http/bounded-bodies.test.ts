import test from 'ava';
import fc from 'fast-check';
import Koa from 'koa';
import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { Slots } from '../../../src/adapters/http/slots.js';
import { errorsToJson } from '../../../src/adapters/http/errors-to-json.js';
import { listen } from '../../../src/adapters/http/http-server.js';
import { bodyOf, countValues, JsonBodyReader } from '../../../src/adapters/http/json-body.js';
import { pino } from 'pino';
import { anEnvelope, WALLET_A } from '../../support/mothers.js';
import { startTestRegistry } from '../../support/registry.js';
import { authHeaders } from '../../support/test-authenticator.js';

test('objects, arrays, strings and numbers are counted; nothing inside a string is', (t) => {
  const count = (text: string, max = 1_000) => countValues(Buffer.from(text), max);
  t.is(count('{"a":[1,{"b":[]}]}'), 7);
  t.is(count('{"a":"[{1"}'), 3);
  t.is(count('{"a":"\\"[{\\\\","b":[]}'), 5, 'an escaped quote does not end the string; an escaped backslash does not escape the quote after it');
  t.is(count('[-1.5e+10,true,null,0.25E-3]'), 3, 'a number is one value however it is spelled; true, false and null allocate nothing');
  t.is(count('[[[[[[', 3), 4, 'counting stops once the cap is passed');
});

test('a text never holds more values than bytes, so a body no longer than the bound need not be counted', (t) => {
  const fits = (text: string) => {
    const bytes = Buffer.from(text);
    return countValues(bytes, Number.MAX_SAFE_INTEGER) <= bytes.length;
  };
  fc.assert(fc.property(fc.json(), fits));
  fc.assert(fc.property(fc.string({ unit: fc.constantFrom('[', '{', '"', '1', '-', ',', '\\', 'e') }), fits));
  t.is(countValues(Buffer.from('[1,2,[]]'), 100), 4);
});

test('slots: holders up to the cap, then a bounded queue in order, then 503 with Retry-After', async (t) => {
  const slots = new Slots({ slots: 1, queue: 1, queuePerWallet: Infinity }, 'large or compressed request bodies');
  const first = await slots.acquire();
  let secondIn = false;
  const second = slots.acquire().then((release) => ((secondIn = true), release));
  await t.throwsAsync(slots.acquire(), { message: /1 at a time, 1 waiting/ });
  t.false(secondIn);
  first();
  first();
  const releaseSecond = await second;
  t.is(slots.inUse, 1, 'the slot was handed over, and a second release of the same holder changes nothing');
  releaseSecond();
  t.is(slots.inUse, 0);
  const error = await slots
    .acquire()
    .then((r) => (r(), null))
    .catch((e: unknown) => e);
  t.is(error, null);
});

/** A plain app around the body reader: answers how many envelopes it read, once the test lets it. */
async function readerApp(reader: JsonBodyReader) {
  const koa = new Koa();
  koa.use(
    errorsToJson(pino({ level: 'silent' }), { databaseErrors: { inc: () => undefined } } as never, { unavailable: () => false, fromDatabase: () => false }),
  );
  const [requireJson, read] = reader.forRoute(16 * 1024 * 1024, false) as [Koa.Middleware, Koa.Middleware];
  koa.use(requireJson);
  koa.use(read);
  koa.use((ctx) => {
    const body = bodyOf(ctx) as { envelopes?: unknown[] };
    ctx.body = { read: body.envelopes?.length ?? 0 };
  });
  return listen(koa, 0, '127.0.0.1');
}

function send(
  url: string,
  body: Buffer,
  headers: Record<string, string>,
  hold = false,
): { done: Promise<{ status: number; body: string; retryAfter?: string }>; finish(): void } {
  const { hostname, port } = new URL(url);
  let finish!: () => void;
  const done = new Promise<{ status: number; body: string; retryAfter?: string }>((resolve, reject) => {
    const req = request(
      { hostname, port, path: '/', method: 'POST', headers: { 'content-type': 'application/json', 'content-length': body.length, ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: text, ...(res.headers['retry-after'] ? { retryAfter: res.headers['retry-after'] } : {}) }),
        );
      },
    );
    req.on('error', reject);
    if (hold) {
      // All but the last byte now; the rest when the test says.
      req.write(body.subarray(0, body.length - 1));
      finish = () => req.end(body.subarray(body.length - 1));
    } else {
      finish = () => undefined;
      req.end(body);
    }
  });
  return { done, finish };
}

const waitFor = async (condition: () => boolean) => {
  while (!condition()) await new Promise((resolve) => setImmediate(resolve));
};

test('compressed bodies are inflated a bounded number at a time; past the queue 503, while small plain bodies are still read', async (t) => {
  const reader = new JsonBodyReader({ largeBodySlots: 1, largeBodyQueue: 1, smallBodyBytes: 1024, maxValues: 1_000 });
  const server = await readerApp(reader);
  t.teardown(() => server.close(0));
  const compressed = gzipSync(JSON.stringify({ envelopes: [{}, {}, {}] }));
  const gzip = { 'content-encoding': 'gzip' };

  const holding = send(server.url, compressed, gzip, true);
  await waitFor(() => reader.slots.inUse === 1);
  const waiting = send(server.url, compressed, gzip);
  await waitFor(() => reader.slots.queued === 1);
  const refused = await send(server.url, compressed, gzip).done;
  t.is(refused.status, 503);
  t.is(refused.retryAfter, '1');
  t.regex(refused.body, /"code":"busy"/);
  // A small uncompressed body needs no slot.
  const small = await send(server.url, Buffer.from(JSON.stringify({ envelopes: [{}] })), {}).done;
  t.deepEqual([small.status, small.body], [200, '{"read":1}']);

  holding.finish();
  t.deepEqual([(await holding.done).status, (await waiting.done).status], [200, 200]);
  t.is(reader.slots.inUse, 0);
});

test('a compressed batch that inflates to more values than a body may hold is 413 before it is parsed', async (t) => {
  const registry = await startTestRegistry();
  t.teardown(() => registry.close());
  // 1.2 million empty envelopes: 3.6 MB of JSON, within the batch limit, from a few KB of gzip.
  const bomb = gzipSync(`{"envelopes":[${'{},'.repeat(1_199_999)}{}]}`);
  t.true(bomb.length < 8_000);
  const { hostname, port } = new URL(registry.url);
  const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      {
        hostname,
        port,
        path: '/v1/verify/batch',
        method: 'POST',
        headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': bomb.length },
      },
      (r) => {
        let text = '';
        r.on('data', (c: Buffer) => (text += c.toString()));
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(bomb);
  });
  t.is(res.status, 413);
  t.regex(res.body, /too many JSON values \(more than 1000000 /);
  // An ordinary compressed batch still goes through.
  const envelopes = [anEnvelope({ taskId: 'gz-1' }), anEnvelope({ taskId: 'gz-2' })];
  const ok = await fetch(`${registry.url}/v1/verify/batch`, {
    method: 'POST',
    headers: { ...authHeaders(WALLET_A), 'content-type': 'application/json', 'content-encoding': 'gzip' },
    body: gzipSync(JSON.stringify({ envelopes })),
  });
  t.is(ok.status, 200);
  t.like(await ok.json(), { total: 2, valid_count: 2 });
});
