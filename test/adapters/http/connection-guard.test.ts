import test from 'ava';
import Koa from 'koa';
import { request, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { descriptorLimit, effectiveMaxConnections, RESERVED_DESCRIPTORS, type ConnectionLimits } from '../../../src/adapters/http/connection-guard.js';
import { listen } from '../../../src/adapters/http/http-server.js';
import { startTestRegistry } from '../../support/registry.js';

const limits = (over: Partial<ConnectionLimits> = {}): ConnectionLimits => ({
  headersTimeoutMs: 60_000,
  requestTimeoutMs: 60_000,
  keepAliveTimeoutMs: 60_000,
  maxConnections: 10_000,
  maxConnectionsPerIp: 0,
  ...over,
});

function okApp(): Koa {
  const koa = new Koa();
  koa.use((ctx) => void (ctx.body = { ok: true }));
  return koa;
}

/** A raw connection from `from` (any 127/8 address is this machine's), never closed from our side unless the test does it. */
async function rawSocket(url: string, from: string): Promise<{ socket: Socket; ended: Promise<void>; received(): string }> {
  const { hostname, port } = new URL(url);
  const socket = connect({ port: Number(port), host: hostname, localAddress: from, allowHalfOpen: true });
  let text = '';
  socket.on('data', (chunk: Buffer) => void (text += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  // The server ended its side (FIN) or reset the connection.
  const ended = new Promise<void>((resolve) => socket.once('end', () => resolve()).once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return { socket, ended, received: () => text };
}

/** GET `path` on a fresh connection from `from`; the status, or the error that ended it. */
function getFrom(url: string, from: string, path: string): Promise<number | string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const req = request({ host: hostname, port: Number(port), path, localAddress: from, agent: false }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode ?? 0));
    });
    req.on('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    req.end();
  });
}

/** The server side of the next connection it accepts. */
const nextServerSocket = (server: Server) => new Promise<Socket>((resolve) => server.once('connection', resolve));

test('the descriptor limit is read from /proc/self/limits; the global cap stays below it', (t) => {
  const limitsText =
    'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 4096                 files\n';
  t.is(
    descriptorLimit(() => limitsText),
    1024,
  );
  t.is(
    descriptorLimit(() => 'Max open files            unlimited            unlimited            files\n'),
    null,
  );
  t.is(
    descriptorLimit(() => {
      throw new Error('no /proc here');
    }),
    null,
  );
  t.is(effectiveMaxConnections(4096, 1024), 1024 - RESERVED_DESCRIPTORS);
  t.is(effectiveMaxConnections(4096, 1_000_000), 4096);
  t.is(effectiveMaxConnections(4096, null), 4096);
  t.is(effectiveMaxConnections(4096, 10), 1, 'never zero: a cap of zero would mean no cap');
});

test('a connection that got a 408 for headers that never finished is destroyed, though the client keeps its side open', async (t) => {
  const server = await listen(okApp(), 0, '127.0.0.1', undefined, limits({ headersTimeoutMs: 300, requestTimeoutMs: 300 }));
  t.teardown(() => server.close(0));
  const accepted = nextServerSocket(server.server);
  const client = await rawSocket(server.url, '127.0.0.1');
  t.teardown(() => client.socket.destroy());
  const serverSide = await accepted;
  client.socket.write('GET /health HTTP/1.1\r\nHost: test\r\nX-Slow: ');
  // Half-closed, the server's socket would stay open until the client closes; it must close by itself.
  await new Promise<void>((resolve) => serverSide.once('close', () => resolve()));
  await client.ended;
  t.regex(client.received(), /^HTTP\/1\.1 408 /);
  t.regex(client.received(), /"code":"request_timeout"/);
  t.is(server.connections.open(), 0);
});

test('a body sent a byte at a time cannot stretch the request deadline: 408, and the connection is destroyed', async (t) => {
  const koa = new Koa();
  // The handler's read is aborted when the server destroys the connection: expected here.
  koa.silent = true;
  koa.use(async (ctx) => {
    for await (const chunk of ctx.req) void chunk;
    ctx.body = { ok: true };
  });
  const server = await listen(koa, 0, '127.0.0.1', undefined, limits({ headersTimeoutMs: 300, requestTimeoutMs: 600 }));
  t.teardown(() => server.close(0));
  const accepted = nextServerSocket(server.server);
  const client = await rawSocket(server.url, '127.0.0.1');
  t.teardown(() => client.socket.destroy());
  const serverSide = await accepted;
  const closed = new Promise<void>((resolve) => serverSide.once('close', () => resolve()));
  client.socket.write('POST /upload HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n');
  // The headers are complete at once; the body comes one byte every 50 ms, each byte well
  // within any idle timeout, so only a deadline on the whole request stops it.
  let sent = 0;
  let open = true;
  void closed.then(() => (open = false));
  while (open && sent < 1000) {
    client.socket.write(' ');
    sent++;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await closed;
  await client.ended;
  t.true(sent < 1000, `the server waited for the whole body (${sent} bytes)`);
  t.regex(client.received(), /^HTTP\/1\.1 408 /);
  t.is(server.connections.open(), 0);
});

test('a connection that sent a malformed request is destroyed after its 400, not left half-open', async (t) => {
  const server = await listen(okApp(), 0, '127.0.0.1', undefined, limits());
  t.teardown(() => server.close(0));
  const accepted = nextServerSocket(server.server);
  const client = await rawSocket(server.url, '127.0.0.1');
  t.teardown(() => client.socket.destroy());
  const serverSide = await accepted;
  client.socket.write('GET /health HTTP/1.1\r\nHost test\r\n\r\n');
  await new Promise<void>((resolve) => serverSide.once('close', () => resolve()));
  await client.ended;
  t.regex(client.received(), /^HTTP\/1\.1 400 /);
});

test('past the global cap new connections are closed as they are accepted', async (t) => {
  const server = await listen(okApp(), 0, '127.0.0.1', undefined, limits({ maxConnections: 20 }));
  t.teardown(() => server.close(0));
  const held: Awaited<ReturnType<typeof rawSocket>>[] = [];
  t.teardown(() => held.forEach((c) => c.socket.destroy()));
  // From several addresses, so no per-address rule is what refuses them.
  for (let i = 0; i < 30; i++) held.push(await rawSocket(server.url, `127.0.0.${10 + (i % 5)}`));
  const refused = held.slice(20);
  await Promise.all(refused.map((c) => c.ended));
  t.is(server.connections.refusedGlobal(), 10);
  t.is(server.connections.open(), 20);
  for (const c of held.slice(0, 20)) t.false(c.socket.destroyed);
});

test.serial('thousands of half-sent connections from one address never stop /health from another', async (t) => {
  const cap = 100;
  const attackers = 3_000;
  const registry = await startTestRegistry({ env: { MAX_CONNECTIONS_PER_IP: String(cap), HEADERS_TIMEOUT_S: '120', REQUEST_TIMEOUT_S: '120' } });
  t.teardown(() => registry.close());
  const held: Awaited<ReturnType<typeof rawSocket>>[] = [];
  t.teardown(() => held.forEach((c) => c.socket.destroy()));
  for (let i = 0; i < attackers; i += 250) {
    const batch = await Promise.all(Array.from({ length: Math.min(250, attackers - i) }, () => rawSocket(registry.url, '127.0.0.1')));
    for (const c of batch) c.socket.write('GET /health HTTP/1.1\r\nHost: test\r\nX-Slow: ');
    held.push(...batch);
  }
  // Every connection past the address's share is closed by the server, whatever order they came in.
  let closedCount = 0;
  await new Promise<void>((resolve) => {
    for (const c of held) {
      void c.ended.then(() => {
        if (++closedCount === attackers - cap) resolve();
      });
    }
  });
  t.is(registry.connections.refusedPerIp(), attackers - cap);
  t.is(registry.connections.open(), cap);

  t.is(await getFrom(registry.url, '127.0.0.2', '/health'), 200, 'another address is served');
  t.not(await getFrom(registry.url, '127.0.0.1', '/health'), 200, 'the address holding its share gets no more');
});
