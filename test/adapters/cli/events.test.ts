import test, { type ExecutionContext } from 'ava';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { CliError } from '../../../src/adapters/cli/command.js';
import { eventLine } from '../../../src/adapters/cli/event-line.js';
import { createEventsCommand, type TailDeps } from '../../../src/adapters/cli/events.js';
import { parseSse, sseStart, type SseMessage } from '../../../src/adapters/cli/sse-parser.js';
import { anEnvelope, WALLET_A, WALLET_B } from '../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../support/registry.js';
import { cli, tempDir } from './harness.js';

// The parser, one table: each input must give the same messages and resume id however it is cut into chunks.
const m = (id: string, data: string, type = 'message'): SseMessage => ({ id, type, data });
const PARSES: Array<[string, string, SseMessage[], string, number | null]> = [
  ['one event', 'id: evt_1\ndata: {"a":1}\n\n', [m('evt_1', '{"a":1}')], 'evt_1', null],
  ['CRLF line endings', 'retry: 3000\r\n\r\nid: 1\r\ndata: x\r\n\r\n', [m('1', 'x')], '1', 3000],
  ['CR line endings', 'id: 1\rdata: x\r\r', [m('1', 'x')], '1', null],
  ['mixed line endings: an LF after CRLF is a line of its own', 'data: x\r\n\ndata: y\r\r\n\n', [m('', 'x'), m('', 'y')], '', null],
  ['data over several lines; one leading space dropped', 'data: a\ndata:b\ndata:  c\ndata\n\n', [m('', 'a\nb\n c\n')], '', null],
  ['comments and retry dispatch nothing; a bad retry is ignored', ': keep-alive\n\nretry: 10\n\nretry: 3s\n\n:x\n', [], '', 10],
  ['an id carries over to the next event', 'id: 1\ndata: a\n\ndata: b\n\n', [m('1', 'a'), m('1', 'b')], '1', null],
  ['an id alone moves the resume point', 'id: 7\n\n', [], '7', null],
  ['an unfinished event is not dispatched, nor its id kept', 'id: 1\ndata: a\n\nid: 2\ndata: {"par', [m('1', 'a')], '1', null],
  [
    'event types, an id holding NUL ignored, unknown fields ignored',
    'id: 3\nevent: ping\nfoo: bar\ndata: x\n\nid: 4\0\ndata: y\n\n',
    [m('3', 'x', 'ping'), m('3', 'y')],
    '3',
    null,
  ],
];
for (const [name, input, messages, lastEventId, retryMs] of PARSES) {
  test(`parseSse: ${name}`, (t) => {
    const cuts = [[input], [...input], ...[...input].map((_, i) => [input.slice(0, i), input.slice(i)])];
    for (const chunks of cuts) {
      let state = sseStart();
      const got: SseMessage[] = [];
      for (const chunk of chunks) {
        const parsed = parseSse(state, chunk);
        state = parsed.state;
        got.push(...parsed.messages);
      }
      t.deepEqual([got, state.lastEventId, state.retryMs], [messages, lastEventId, retryMs], JSON.stringify(chunks));
    }
  });
}

const PROOF = '762172e1996241d45ee16ae9582317e61596752e21c7578c21994ec1f3f56515';
const event = (n: number, type: string, data: object) => ({
  id: `evt_${String(n).padStart(16, '0')}`,
  type,
  timestamp: '2026-12-05T10:00:00.000Z',
  wallet: WALLET_A,
  data,
});
const accepted = (n: number) => event(n, 'proof.accepted', { proof_id: PROOF, log_index: n, task_id: `pick-${n}`, robot_id: 'arm-07', run_id: null });
const LINES: Array<[object, string]> = [
  [accepted(12), '2026-12-05T10:00:00.000Z proof.accepted 7621…56515 task=pick-12 robot=arm-07 leaf=12'],
  [
    event(1, 'proof.rejected', { code: 'signature_invalid', check: 'signature', detail: 'bad\x1b[2Jsig', proof_id: null, task_id: 'a b', robot_id: null }),
    '2026-12-05T10:00:00.000Z proof.rejected signature_invalid check=signature task="a b": bad\\u{1b}[2Jsig',
  ],
  [event(2, 'proof.logged', { proof_id: PROOF, log_index: 3, tree_size: 9, hashes: [] }), '2026-12-05T10:00:00.000Z proof.logged 7621…56515 leaf=3 tree=9'],
  [
    event(3, 'device.status_changed', { device_id: 'arm-07', from: 'online', to: 'offline', why: 'silence' }),
    '2026-12-05T10:00:00.000Z device.status_changed arm-07 online→offline (silence)',
  ],
  [
    event(4, 'device.status_changed', { device_id: 'arm\u202e-1\n', from: null, to: 'online', why: 'proof' }),
    '2026-12-05T10:00:00.000Z device.status_changed "arm\\u{202e}-1\\n" new→online (proof)',
  ],
  [
    event(5, 'key.created', { key_id: 'key_Q1', name: 'line robots', prefix: 'pr_live_5Hq3' }),
    '2026-12-05T10:00:00.000Z key.created key_Q1 "line robots" prefix=pr_live_5Hq3',
  ],
  [event(6, 'fleet.renamed', { a: 1 }), '2026-12-05T10:00:00.000Z fleet.renamed {"a":1}'],
];
test('eventLine: one line per type, what devices wrote escaped, an unknown type as its JSON', (t) => {
  for (const [body, line] of LINES) t.is(eventLine(body as Record<string, unknown>), line);
});

/** What the command wrote so far, and a wait until it holds something (checked on each write, no polling). */
class Sink {
  text = '';
  private readonly waiting = new Set<() => void>();
  write = (text: string): boolean => {
    this.text += text;
    for (const check of [...this.waiting]) check();
    return true;
  };
  until = (ok: (text: string) => boolean): Promise<void> =>
    new Promise((resolve) => {
      const check = () => ok(this.text) && (this.waiting.delete(check), resolve());
      this.waiting.add(check);
      check();
    });
}

/** `events tail` in-process: its output, its waits (held until `release` when gated), a SIGINT, and its exit code. */
function startTail(args: string[], env: Record<string, string>, o: { gated?: boolean; idleMs?: number } = {}) {
  const [out, err, waits] = [new Sink(), new Sink(), [] as number[]];
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let interrupt = () => {};
  const deps: TailDeps = {
    wait: (ms, signal) => {
      waits.push(ms);
      return o.gated ? Promise.race([gate, once(signal, 'abort').then(() => undefined)]) : Promise.resolve();
    },
    onInterrupt: (stop) => ((interrupt = stop), () => (interrupt = () => {})),
    idleMs: o.idleMs ?? 60_000,
    random: () => 0,
  };
  const done = createEventsCommand(env, deps)
    .run(['tail', ...args], { stdout: out, stderr: err, stdin: Readable.from([]), cwd: process.cwd() })
    .catch((error: unknown) => (error instanceof CliError ? (err.write(error.message), error.exitCode) : Promise.reject(error)));
  const until = (sink: Sink, ok: (text: string) => boolean) =>
    Promise.race([sink.until(ok), done.then((code) => Promise.reject(new Error(`exited ${code}: ${err.text}`)))]);
  return { out, err, waits, done, release, interrupt: () => interrupt(), until };
}

const as = (registry: { url: string }, wallet = WALLET_A, key = `test:${wallet}`) => ({
  PROOF_REGISTRY_URL: registry.url,
  PROOF_REGISTRY_API_KEY: key,
  PROOF_REGISTRY_WALLET: wallet,
});
const submit = async (registry: TestRegistry, taskId: string) => {
  const reply = await registry.call(WALLET_A, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId, robotId: 'arm-07' }) });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.proof_id as string;
};
const lines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { id: string; type: string; data: { proof_id: string } });

test('tail --json --count 3 prints the events after --after as the stream sends them, one per line, and stops', async (t) => {
  const registry = await startTestRegistry({ env: { EVENT_POLL_MS: '10' } });
  t.teardown(() => registry.close());
  await submit(registry, 'before');
  const before = (await registry.call(WALLET_A, 'GET', '/v1/events?types=proof.accepted')).body.items[0].id as string;
  const tail = startTail(['--json', '--count', '3', '--types', 'proof.accepted', '--after', before], as(registry));
  const ids = [await submit(registry, 'cli-1'), await submit(registry, 'cli-2')];
  await registry.call(WALLET_B, 'POST', '/v1/proofs', { envelope: anEnvelope({ taskId: 'another wallet' }) });
  ids.push(await submit(registry, 'cli-3'));
  t.is(await tail.done, 0, tail.err.text);
  const printed = lines(tail.out.text);
  t.deepEqual(
    printed.map((e) => e.data.proof_id),
    ids,
  );
  const feed = (await registry.call(WALLET_A, 'GET', `/v1/events?types=proof.accepted&after=${before}`)).body.items as unknown[];
  t.is(tail.out.text, feed.map((e) => `${JSON.stringify(e)}\n`).join(''), 'each event as the service renders it, nothing else');
  t.regex(tail.err.text, new RegExp(`^proof-registry: following the events of ${WALLET_A} at ${registry.url}, after ${before}\n$`));

  const human = startTail(['--from-start', '--count', '1', '--types', 'proof.accepted'], as(registry));
  t.is(await human.done, 0, human.err.text);
  t.regex(human.out.text, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z proof\.accepted [0-9a-f]{4}…[0-9a-f]{5} task=before robot=arm-07 leaf=0\n$/);
});

test('a restart of the registry: tail reconnects with the last id printed, and prints what happened meanwhile once', async (t) => {
  const dir = tempDir(t);
  const env = { DATABASE_URL: `sqlite:${join(dir, 'registry.sqlite')}`, EVENT_POLL_MS: '10' };
  const first = await startTestRegistry({ env });
  const tail = startTail(['--json', '--count', '4', '--types', 'proof.accepted', '--from-start'], as(first), { gated: true });
  const ids = [await submit(first, 'r-1'), await submit(first, 'r-2')];
  await tail.until(tail.out, (text) => text.split('\n').length === 3);
  await first.close();
  await tail.until(tail.err, (text) => text.includes('reconnecting in 3 s'));
  const second = await startTestRegistry({ env: { ...env, PORT: new URL(first.url).port } });
  t.teardown(() => second.close());
  ids.push(await submit(second, 'r-3'), await submit(second, 'r-4'));
  tail.release();
  t.is(await tail.done, 0, tail.err.text);
  const printed = lines(tail.out.text);
  t.deepEqual(
    printed.map((e) => e.data.proof_id),
    ids,
    'every proof once, in order',
  );
  t.deepEqual(tail.waits, [3000], "the wait the service's retry: asks for");
  t.true(tail.err.text.includes(`reconnected, resuming after ${printed[1]!.id}\n`), tail.err.text);
});

/** A server the test scripts: request n is answered by script[n] (the last entry answers any later one). */
async function stub(t: ExecutionContext, script: Array<(res: ServerResponse) => void>) {
  const seen: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    seen.push(req);
    script[Math.min(seen.length, script.length) - 1]!(res);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  t.teardown(() => (server.closeAllConnections(), server.close()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
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

test('refusals exit 1 with the detail: a wrong key (401), a key of another wallet (403), a query the service refuses (422), not an event stream', async (t) => {
  const registry = await startTestRegistry();
  t.teardown(() => registry.close());
  const cases: Array<[Record<string, string>, RegExp]> = [
    [as(registry, WALLET_A, 'pr_live_wrong'), /^GET \/v1\/events\/stream: 401 invalid API key$/],
    [as(registry, WALLET_B, `test:${WALLET_A}`), /^GET \/v1\/events\/stream: 403 X-Wallet-Address does not match the wallet of the credential$/],
  ];
  const refusing = await stub(t, [(res) => res.writeHead(422, { 'content-type': 'application/json' }).end('{"detail":"after: too old"}')]);
  const notAStream = await stub(t, [(res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<html>')]);
  cases.push([{ ...as(refusing), PROOF_REGISTRY_API_KEY: 'k' }, /^GET \/v1\/events\/stream: 422 after: too old$/]);
  cases.push([
    { ...as(notAStream), PROOF_REGISTRY_API_KEY: 'k' },
    /^GET \/v1\/events\/stream answered text\/html, not an event stream: is http:\/\/127\.0\.0\.1:\d+ a Proof Registry\?$/,
  ]);
  for (const [env, message] of cases) {
    const tail = startTail([], env);
    t.is(await tail.done, 1);
    t.regex(tail.err.text, message);
    t.is(tail.out.text, '');
  }
});

test('usage errors exit 2 before anything is sent: an unknown type (with the list), a bad id or count, no credential, no service', async (t) => {
  const dir = tempDir(t);
  const closed = createServer().listen(0, '127.0.0.1');
  await once(closed, 'listening');
  const nobody = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
  await new Promise((resolve) => closed.close(resolve));
  const given = ['--key', 'k', '--wallet', WALLET_A, '--url', nobody];
  const cases: Array<[string[], RegExp]> = [
    [
      ['tail', '--types', 'proof.accepted,proof.acepted', ...given],
      /unknown event type "proof\.acepted"; the types are proof\.accepted, proof\.rejected, proof\.logged, device\.status_changed, key\.created, key\.updated, key\.deleted\n$/,
    ],
    [['tail', '--after', 'evt_12x', ...given], /--after must be an event id/],
    [['tail', '--after', 'evt_0000000000000001', '--from-start', ...given], /give one/],
    [['tail', '--count', '0', ...given], /--count must be a whole number/],
    [['follow', ...given], /unknown events command "follow": tail/],
    [['tail', '--session', join(dir, 'none.json'), '--url', nobody], /not signed in .*or give an API key \(--key or PROOF_REGISTRY_API_KEY\)/],
    [['tail', ...given], new RegExp(`^proof-registry: cannot reach the service at ${nobody} \\(ECONNREFUSED\\); is it running\\?`)],
  ];
  for (const [args, message] of cases) {
    const r = await cli(['events', ...args], dir);
    t.is(r.code, 2, r.stderr);
    t.regex(r.stderr, message);
  }
});

const BIN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', 'bin', 'proof-registry.js');

test('the bin, on the session login saved, exits 0 on SIGINT and SIGTERM with what it printed flushed', async (t) => {
  const registry = await startTestRegistry({ env: { EVENT_POLL_MS: '10' } });
  t.teardown(() => registry.close());
  const dir = tempDir(t);
  writeFileSync(
    join(dir, 'session.json'),
    JSON.stringify({ url: registry.url, wallet: WALLET_A, access_token: `test:${WALLET_A}`, expires_at: '2999-01-01T00:00:00Z' }),
  );
  await submit(registry, 'signal');
  await Promise.all(
    (['SIGINT', 'SIGTERM'] as const).map(async (signal) => {
      const child = spawn(process.execPath, [BIN, 'events', 'tail', '--from-start', '--types', 'proof.accepted'], {
        cwd: dir,
        env: {
          ...process.env,
          PROOF_REGISTRY_FROM_SOURCE: '1',
          PROOF_REGISTRY_SESSION: join(dir, 'session.json'),
          PROOF_REGISTRY_API_KEY: '',
          PROOF_REGISTRY_URL: '',
        },
      });
      const [out, err] = [new Sink(), new Sink()];
      child.stdout.setEncoding('utf8').on('data', out.write);
      child.stderr.setEncoding('utf8').on('data', err.write);
      const exited = once(child, 'close') as Promise<[number | null, string | null]>;
      await Promise.race([out.until((text) => text.includes('task=signal')), exited]);
      child.kill(signal);
      t.deepEqual(await exited, [0, null], `${signal}: ${err.text}`);
      t.regex(out.text, /^\S+ proof\.accepted \S+ task=signal robot=arm-07 leaf=0\n$/);
    }),
  );
});
