import test from 'ava';
import Koa from 'koa';
import { connect, type Socket } from 'node:net';
import { listen } from '../../../src/adapters/http/http-server.js';

/** A Koa app that answers every request with its path, after `delayMs` when the path is /slow. */
function app(): Koa {
  const koa = new Koa();
  koa.use(async (ctx) => {
    if (ctx.path === '/slow') await new Promise((resolve) => setTimeout(resolve, 200));
    ctx.body = ctx.path;
  });
  return koa;
}

/** One raw keep-alive connection, to see exactly what the server does with it. */
async function rawConnection(url: string): Promise<{ socket: Socket; send(path: string): Promise<string> }> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  let received = '';
  let waiting: { resolve(text: string): void; reject(err: Error): void } | undefined;
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString();
    const end = received.indexOf('\r\n\r\n');
    const length = /content-length: (\d+)/i.exec(received);
    if (end >= 0 && length && received.length >= end + 4 + Number(length[1])) {
      const text = received;
      received = '';
      waiting?.resolve(text);
    }
  });
  socket.on('error', (err) => waiting?.reject(err));
  socket.on('close', () => waiting?.reject(new Error(`closed with ${received.length} bytes of an answer`)));
  return {
    socket,
    send: (path) =>
      new Promise<string>((resolve, reject) => {
        if (socket.destroyed) return reject(new Error('the connection is closed'));
        waiting = { resolve, reject };
        socket.write(`GET ${path} HTTP/1.1\r\nHost: test\r\nConnection: keep-alive\r\n\r\n`);
      }),
  };
}

test.serial('an answer sent after the stop began closes its connection, though its request came before', async (t) => {
  const server = await listen(app(), 0, '127.0.0.1');
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  const answer = connection.send('/slow');
  await new Promise((resolve) => setTimeout(resolve, 50));
  const closing = server.close();
  const text = await answer;
  t.regex(text, /^HTTP\/1\.1 200/);
  t.regex(text, /\r\nconnection: close\r\n/i);
  await closing;
});

test.serial('a request sent on an idle connection is answered even when the stop drains idle connections while the event loop was busy', async (t) => {
  const server = await listen(app(), 0, '127.0.0.1');
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  t.regex(await connection.send('/first'), /\r\nconnection: keep-alive\r\n/i);
  const closing = server.close();
  // The client sends its next request just before the idle drain is due; the server's event
  // loop is then blocked past that moment, so the drain's timer and the request's bytes are
  // both waiting when it runs again.
  // (Blocked from the check phase, so that the next loop turn begins with its timers.)
  await new Promise((resolve) => setTimeout(resolve, 900));
  const answer = await new Promise<Promise<string>>((resolve) =>
    setImmediate(() => {
      const sent = connection.send('/second');
      const until = Date.now() + 300;
      while (Date.now() < until);
      resolve(sent);
    }),
  );
  const text = await answer;
  t.regex(text, /^HTTP\/1\.1 200/);
  t.regex(text, /\/second$/);
  t.regex(text, /\r\nconnection: close\r\n/i);
  await closing;
});

test.serial('a stop closes a connection that stays idle, and refuses new connections at once', async (t) => {
  const server = await listen(app(), 0, '127.0.0.1');
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  await connection.send('/first');
  const closed = new Promise<number>((resolve) => connection.socket.once('close', () => resolve(Date.now())));
  const started = Date.now();
  const closing = server.close();
  await t.throwsAsync(rawConnection(server.url), { code: 'ECONNREFUSED' });
  await closing;
  const at = await closed;
  t.true(at - started >= 900, `closed after ${at - started} ms`);
});
