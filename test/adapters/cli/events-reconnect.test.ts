import test from 'ava';
import type { ServerResponse } from 'node:http';
import { eventLine } from '../../../src/adapters/cli/event-line.js';
import { WALLET_A } from '../../support/mothers.js';
import { accepted, startTail, stub } from './events-support.js';

const stream = (res: ServerResponse, text: string) => res.writeHead(200, { 'content-type': 'text/event-stream' }).write(text);
const frame = (e: { id: string }, eol = '\n') => `id: ${e.id}${eol}data: ${JSON.stringify(e)}${eol}${eol}`;

test('a cut inside an event, then a 503: tail waits as told, resumes after the last whole event, prints none twice', async (t) => {
  const [e1, e2, e3, e4] = [accepted(1), accepted(2), accepted(3), accepted(4)];
  const split = JSON.stringify(e1, null, 1).split('\n');
  const server = await stub(t, [
    (res) => {
      const text = `retry: 10\r\n\r\n: keep-alive\r\n\r\nid: ${e1.id}\r\n${split.map((l) => `data: ${l}\r\n`).join('')}\r\n${frame(e2)}id: ${e3.id}\ndata: {"id":`;
      res.writeHead(200, { 'content-type': 'text/event-stream' }).write(text, () => res.destroy());
    },
    (res) => res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '1' }).end('{"detail":"busy"}'),
    (res) => stream(res, frame(e3) + frame(e4) + frame(accepted(5))),
  ]);
  const tail = startTail(['--json', '--count', '4', '--types', 'proof.accepted,key.created'], {
    PROOF_REGISTRY_URL: server.url,
    PROOF_REGISTRY_API_KEY: 'pr_live_x',
    PROOF_REGISTRY_WALLET: WALLET_A,
  });
  t.is(await tail.done, 0, tail.err.text);
  t.is(tail.out.text, [e1, e2, e3, e4].map((e) => `${JSON.stringify(e)}\n`).join(''));
  t.deepEqual(
    server.seen.map((r) => [r.url, r.headers['last-event-id'], r.headers.authorization, r.headers['x-wallet-address']]),
    [
      ['/v1/events/stream?types=proof.accepted%2Ckey.created', undefined, 'Bearer pr_live_x', WALLET_A],
      ['/v1/events/stream?types=proof.accepted%2Ckey.created', e2.id, 'Bearer pr_live_x', WALLET_A],
      ['/v1/events/stream?types=proof.accepted%2Ckey.created', e2.id, 'Bearer pr_live_x', WALLET_A],
    ],
  );
  t.deepEqual(tail.waits, [10, 2000], "the service's retry: first, then its Retry-After, doubled on the second failure in a row");
  t.regex(
    tail.err.text,
    /connection lost \(.+\); reconnecting in 0 s\n.*the service answered 503 busy; reconnecting in 2 s\n.*reconnected, resuming after evt_0+2\n$/s,
  );
});

test('a connection that goes silent is dropped and followed again', async (t) => {
  const server = await stub(t, [(res) => stream(res, 'retry: 5\n\n'), (res) => stream(res, frame(accepted(1)))]);
  const tail = startTail(['--count', '1'], { PROOF_REGISTRY_URL: server.url, PROOF_REGISTRY_API_KEY: 'k', PROOF_REGISTRY_WALLET: WALLET_A }, { idleMs: 50 });
  t.is(await tail.done, 0, tail.err.text);
  t.is(tail.out.text, `${eventLine(accepted(1))}\n`);
  t.regex(tail.err.text, /nothing heard for 0\.05 s; reconnecting in [0-9.]+ s\n/);
});

test('SIGINT while waiting to reconnect ends the command at once (exit 0)', async (t) => {
  const server = await stub(t, [(res) => res.writeHead(503).end()]);
  const tail = startTail([], { PROOF_REGISTRY_URL: server.url, PROOF_REGISTRY_API_KEY: 'k', PROOF_REGISTRY_WALLET: WALLET_A }, { gated: true });
  await tail.until(tail.err, (text) => text.endsWith('the service answered 503 Service Unavailable; reconnecting in 3 s\n'));
  tail.interrupt();
  t.is(await tail.done, 0);
  t.is(server.seen.length, 1);
});
