import test, { type ExecutionContext } from 'ava';
import type { LookupAddress } from 'node:dns';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import type { Resolve } from '../../../src/adapters/webhooks/address-guard.js';
import { NodeWebhookTransport, type NodeWebhookTransportOptions } from '../../../src/adapters/webhooks/node-webhook-transport.js';

interface Received {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

/** A real HTTP server on 127.0.0.1 that records every connection and request it gets. */
interface Receiver {
  readonly url: string;
  readonly port: number;
  readonly requests: Received[];
  /** How many connections reached it. */
  connections(): number;
  /** Resolves once every connection it has accepted so far is closed. */
  allClosed(): Promise<void>;
}

type Handler = (req: IncomingMessage, res: ServerResponse, body: Buffer) => void;

async function receiver(t: ExecutionContext, handler: Handler): Promise<Receiver> {
  const requests: Received[] = [];
  const sockets: { socket: Socket; closed: Promise<void> }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      handler(req, res, body);
    });
  });
  server.on('connection', (socket: Socket) => {
    socket.on('error', () => undefined);
    sockets.push({ socket, closed: new Promise((resolve) => socket.once('close', () => resolve())) });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => {
    server.closeAllConnections();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    connections: () => sockets.length,
    allClosed: async () => void (await Promise.all(sockets.map((s) => s.closed))),
  };
}

function transport(t: ExecutionContext, options: NodeWebhookTransportOptions = {}): NodeWebhookTransport {
  const made = new NodeWebhookTransport({ allowPrivate: true, ...options });
  t.teardown(() => made.close());
  return made;
}

const HEADERS = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1790000000', 'webhook-signature': 'v1,c2lnbmF0dXJl' };
const BODY = '{"type":"proof.accepted","data":{"note":"Zürich ✓","n":1.0}}';
const hook = (url: string) => ({ url, headers: HEADERS, body: BODY });

const answer =
  (status: number, body: string, headers: Record<string, string> = {}): Handler =>
  (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
    res.end(body);
  };

test('a 2xx: the status and the start of the answer; the headers and body arrive exactly as given', async (t) => {
  const r = await receiver(t, answer(200, 'thanks'));
  const result = await transport(t, { userAgent: 'registry-test/1' }).post(hook(`${r.url}/hooks/in?x=1`));
  t.like(result, { statusCode: 200, error: null, bodyExcerpt: 'thanks' });
  t.true(result.latencyMs > 0);
  t.is(r.requests.length, 1);
  const [got] = r.requests;
  t.is(got!.method, 'POST');
  t.is(got!.path, '/hooks/in?x=1');
  t.true(got!.body.equals(Buffer.from(BODY, 'utf8')), 'the body byte for byte, as signed');
  t.like(got!.headers, { ...HEADERS, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(BODY)), 'user-agent': 'registry-test/1' });
});

for (const status of [500, 410, 429]) {
  test(`a ${status} is a failure that says so, with the answer's start`, async (t) => {
    const r = await receiver(t, answer(status, `no: ${status}`));
    t.like(await transport(t).post(hook(r.url)), { statusCode: status, error: `answered ${status}`, bodyExcerpt: `no: ${status}` });
  });
}

test('the excerpt stops at the cap, without half a character', async (t) => {
  const r = await receiver(t, answer(500, 'é'.repeat(10)));
  t.like(await transport(t, { maxResponseBytes: 5 }).post(hook(r.url)), { statusCode: 500, bodyExcerpt: 'éé' });
});

test('a redirect is a failure and its Location is never followed', async (t) => {
  const elsewhere = await receiver(t, answer(200, 'followed'));
  const r = await receiver(t, answer(302, '', { location: `${elsewhere.url}/landing` }));
  t.like(await transport(t).post(hook(r.url)), { statusCode: 302, error: 'redirect (302) not followed' });
  t.is(elsewhere.connections(), 0, 'nothing reached the redirect target');
  t.is(elsewhere.requests.length, 0);
});

test('a receiver that never answers: the attempt ends at the deadline and its connection is closed', async (t) => {
  t.timeout(20_000, 'the transport did not close the connection');
  const r = await receiver(t, () => undefined);
  const result = await transport(t, { timeoutMs: 300 }).post(hook(r.url));
  t.like(result, { statusCode: null, error: 'timed out after 0.3 s', bodyExcerpt: '' });
  t.true(result.latencyMs >= 250, 'it waited for the deadline');
  t.is(r.requests.length, 1);
  await r.allClosed();
  t.pass();
});

test('a receiver that answers and then trickles its body forever is cut off at the deadline', async (t) => {
  t.timeout(20_000, 'the transport kept reading past its deadline');
  const r = await receiver(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.write('a');
    const drip = setInterval(() => res.write('a'), 50);
    res.on('close', () => clearInterval(drip));
  });
  // The deadline leaves the headers ample time to arrive, even on a loaded machine; the body never ends.
  const result = await transport(t, { timeoutMs: 2000 }).post(hook(r.url));
  t.is(result.statusCode, 200, 'its answer had arrived');
  t.regex(result.bodyExcerpt, /^a+$/);
  t.true(result.bodyExcerpt.length < 4096);
  await r.allClosed();
});

test('a receiver streaming a gigabyte: only the excerpt is read, and the connection is closed long before', async (t) => {
  const GIGABYTE = 1024 ** 3;
  const chunk = Buffer.alloc(64 * 1024, 'x');
  let written = 0;
  const r = await receiver(t, (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const pump = () => {
      while (written < GIGABYTE && !res.destroyed) {
        written += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end();
    };
    pump();
  });
  const result = await transport(t, { maxResponseBytes: 1000, timeoutMs: 60_000 }).post(hook(r.url));
  t.like(result, { statusCode: 200, error: null, bodyExcerpt: 'x'.repeat(1000) });
  await r.allClosed();
  t.true(written < 64 * 1024 ** 2, `the receiver wrote ${written} bytes before its connection was closed`);
});

test('a closed port: connection refused', async (t) => {
  const r = await receiver(t, answer(200, ''));
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
  t.like(await transport(t).post(hook(`http://127.0.0.1:${port}/`)), { statusCode: null, error: 'connection refused' });
  t.is(r.connections(), 0);
});

test('without allowPrivate, loopback is refused before any connection is made', async (t) => {
  const r = await receiver(t, answer(200, 'ok'));
  const guarded = transport(t, { allowPrivate: false });
  t.like(await guarded.post(hook(`${r.url}/`)), { statusCode: null, error: 'refused: 127.0.0.1 is a loopback address' });
  t.like(await guarded.post(hook(`http://localhost:${r.port}/`)), { statusCode: null, error: 'refused: localhost is a loopback name' });
  t.like(await guarded.post(hook(`http://0x7f.1:${r.port}/`)), { statusCode: null, error: 'refused: 127.0.0.1 is a loopback address' });
  t.like(await guarded.post(hook(`http://[::ffff:127.0.0.1]:${r.port}/`)), { error: 'refused: [::ffff:7f00:1] is a loopback address' });
  t.is(r.connections(), 0, 'nothing reached the receiver');
  // The same receiver is reachable, so the refusals above were the guard's.
  t.like(await transport(t).post(hook(`${r.url}/`)), { statusCode: 200 });
  t.is(r.connections(), 1);
});

/** A DNS that answers each name from the table, counting the questions. */
function dnsOf(table: Record<string, readonly string[]>): Resolve & { asked: string[] } {
  const asked: string[] = [];
  const resolve = async (hostname: string): Promise<LookupAddress[]> => {
    asked.push(hostname);
    const addresses = table[hostname];
    if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND', hostname });
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return Object.assign(resolve, { asked });
}

test('a name that resolves to a public address and to 127.0.0.1 is refused, and nothing is connected (DNS rebinding)', async (t) => {
  const r = await receiver(t, answer(200, 'ok'));
  const resolve = dnsOf({ 'rebinding.test': ['93.184.215.14', '127.0.0.1'], 'inside.test': ['10.0.0.7'] });
  const guarded = transport(t, { allowPrivate: false, resolve });
  t.like(await guarded.post(hook(`http://rebinding.test:${r.port}/`)), {
    statusCode: null,
    error: 'refused: rebinding.test resolves to 127.0.0.1, a loopback address',
  });
  t.like(await guarded.post(hook(`http://inside.test:${r.port}/`)), {
    statusCode: null,
    error: 'refused: inside.test resolves to 10.0.0.7, a private address',
  });
  t.like(await guarded.post(hook(`http://nowhere.test:${r.port}/`)), { statusCode: null, error: 'DNS lookup of nowhere.test failed (ENOTFOUND)' });
  t.is(r.connections(), 0);
});

test('the connection goes to the address the guard judged, from one resolution', async (t) => {
  const r = await receiver(t, answer(200, 'ok'));
  const resolve = dnsOf({ 'receiver.test': ['127.0.0.1'] });
  const result = await transport(t, { resolve }).post(hook(`http://receiver.test:${r.port}/in`));
  t.like(result, { statusCode: 200, error: null });
  t.is(r.requests[0]!.headers.host, `receiver.test:${r.port}`);
  t.deepEqual(resolve.asked, ['receiver.test']);
});

test('connections are kept alive between attempts and closed by close()', async (t) => {
  const r = await receiver(t, answer(204, ''));
  const kept = new NodeWebhookTransport({ allowPrivate: true });
  for (let i = 0; i < 3; i++) t.like(await kept.post(hook(r.url)), { statusCode: 204, error: null });
  t.is(r.connections(), 1, 'one connection served all three');
  await kept.close();
  await r.allClosed();
  t.like(await kept.post(hook(r.url)), { statusCode: null, error: 'the transport is closed' });
});

test('a kept-alive connection the receiver dropped meanwhile: the webhook is sent again on a new one', async (t) => {
  // Answers the first request of each connection and resets the connection at the next: as a
  // receiver whose idle timeout ran out just as the transport reused the connection.
  let requests = 0;
  const server = createNetServer((socket) => {
    let answered = false;
    socket.on('error', () => undefined);
    socket.on('data', () => {
      requests += 1;
      if (answered) return void socket.resetAndDestroy();
      answered = true;
      socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: keep-alive\r\n\r\nok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const sender = transport(t);
  t.like(await sender.post(hook(url)), { statusCode: 200, error: null, bodyExcerpt: 'ok' });
  t.like(await sender.post(hook(url)), { statusCode: 200, error: null, bodyExcerpt: 'ok' });
  t.is(requests, 3, 'the second webhook was refused once, then sent again');
});

for (const [cap, posts] of [
  [undefined, 40],
  [5, 12],
] as const) {
  test(`a receiver gets at most ${cap ?? 'the default of 32'} connections at once`, async (t) => {
    const limit = cap ?? 32;
    const held: ServerResponse[] = [];
    let releasing = false;
    const r = await receiver(t, (_req, res) => {
      if (releasing) return void res.end('ok');
      held.push(res);
      // Every request the transport lets through at once has arrived: answer them all.
      if (held.length === limit) {
        releasing = true;
        for (const waiting of held) waiting.end('ok');
      }
    });
    const sender = transport(t, cap === undefined ? {} : { maxSocketsPerHost: cap });
    const results = await Promise.all(Array.from({ length: posts }, () => sender.post(hook(r.url))));
    t.true(results.every((result) => result.statusCode === 200));
    t.is(r.connections(), limit);
  });
}

test('what cannot be sent is a failed attempt, not an exception', async (t) => {
  const sender = transport(t);
  t.like(await sender.post(hook('not a url')), { statusCode: null, error: 'not a valid URL' });
  t.like(await sender.post(hook('ftp://hooks.example/')), { statusCode: null, error: 'unsupported scheme ftp: (http or https only)' });
  const r = await receiver(t, answer(200, 'ok'));
  const broken = await sender.post({ url: r.url, headers: { 'webhook-id': 'a\r\nx-injected: 1' }, body: '{}' });
  t.is(broken.statusCode, null);
  t.regex(broken.error ?? '', /^ERR_INVALID_CHAR/);
  t.is(r.connections(), 0);
});
