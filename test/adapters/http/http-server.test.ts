import test, { type ExecutionContext } from 'ava';
import Koa from 'koa';
import { stat } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { ACCEPT_DRAIN_MS, IDLE_DRAIN_MS, listen, type StopTimers } from '../../../src/adapters/http/http-server.js';

/**
 * A Koa app that answers every request with its path. A request to /held is answered only once
 * `release()` is called; `arrived` resolves when it has reached the app.
 */
function app(): { koa: Koa; arrived: Promise<void>; release(): void } {
  let arrive!: () => void;
  let release!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  const koa = new Koa();
  koa.use(async (ctx) => {
    if (ctx.path === '/held') {
      arrive();
      await released;
    }
    ctx.body = ctx.path;
  });
  return { koa, arrived, release };
}

/** Timers that fire only when the test says, so a stop's steps happen in a known order. */
function manualTimers(): StopTimers & { delays(): number[]; fire(ms: number): void } {
  const pending = new Map<number, { fn: () => void; ms: number; repeat: boolean }>();
  let next = 0;
  const add = (repeat: boolean) => (fn: () => void, ms: number) => {
    pending.set(++next, { fn, ms, repeat });
    return next;
  };
  const remove = (handle: unknown) => void pending.delete(handle as number);
  return {
    setTimeout: add(false),
    setInterval: add(true),
    clearTimeout: remove,
    clearInterval: remove,
    delays: () => [...pending.values()].map((timer) => timer.ms).sort((a, b) => a - b),
    fire: (ms) => {
      for (const [handle, timer] of [...pending]) {
        if (timer.ms !== ms) continue;
        if (!timer.repeat) pending.delete(handle);
        timer.fn();
      }
    },
  };
}

/** Two turns of the event loop: whatever was ready to be read or run has been. */
const turns = async () => {
  for (let i = 0; i < 2; i++) await new Promise((resolve) => setImmediate(resolve));
};

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

/** The raw answer is a 200 to `path` (the app answers with the path) that closes its connection. */
function answeredThenClosed(t: ExecutionContext, text: string, path: string): void {
  t.regex(text, /^HTTP\/1\.1 200/);
  t.true(text.endsWith(path), text);
  t.regex(text, /\r\nconnection: close\r\n/i);
}

test.serial('an answer sent once the stop has closed the listener closes its connection, though its request came before', async (t) => {
  const { koa, arrived, release } = app();
  const server = await listen(koa, 0, '127.0.0.1', manualTimers());
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  const answer = connection.send('/held');
  await arrived;
  const closing = server.close();
  await turns();
  release();
  const text = await answer;
  t.regex(text, /^HTTP\/1\.1 200/);
  t.regex(text, /\r\nconnection: close\r\n/i);
  await closing;
});

test.serial('a request sent on an idle connection is answered even when the idle drain comes before the server has read it', async (t) => {
  const timers = manualTimers();
  const server = await listen(app().koa, 0, '127.0.0.1', timers);
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  t.regex(await connection.send('/first'), /\r\nconnection: keep-alive\r\n/i);
  const closing = server.close();
  await turns();
  // The client's next request is on the wire, not yet read by the server, when the idle drain
  // runs (as when the event loop was busy past its moment): the drain must not take it for idle.
  // Both happen in the timers phase, where a real drain runs (a 0 ms timer only picks the phase).
  const answer = await new Promise<Promise<string>>((resolve) =>
    setTimeout(() => {
      const sent = connection.send('/second');
      timers.fire(IDLE_DRAIN_MS);
      resolve(sent);
    }, 0),
  );
  answeredThenClosed(t, await answer, '/second');
  await closing;
});

test.serial('a request a client sends in the same turn of the event loop as the idle drain, after reading its answer, is answered', async (t) => {
  const timers = manualTimers();
  const server = await listen(app().koa, 0, '127.0.0.1', timers);
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  t.regex(await connection.send('/first'), /\r\nconnection: keep-alive\r\n/i);
  const closing = server.close();
  await turns();
  // A client reads answers and writes its next request from I/O callbacks (the poll phase). When
  // the drain is due in that same turn, the request is on the wire, unread, when the drain's
  // check-phase work runs: the connection looks idle then, and must not be closed for it.
  const answer = await new Promise<Promise<string>>((resolve) =>
    stat('.', () => {
      timers.fire(IDLE_DRAIN_MS);
      resolve(connection.send('/second'));
    }),
  );
  answeredThenClosed(t, await answer, '/second');
  await closing;
});

test.serial('a request a client sends as soon as it reads an answer that went out in the turn of the idle drain is answered', async (t) => {
  const timers = manualTimers();
  const koa = new Koa();
  let closing: Promise<void> | undefined;
  koa.use(async (ctx) => {
    if (ctx.path !== '/last') {
      ctx.body = ctx.path;
      return;
    }
    // The answer's headers go out before the stop, so it keeps its connection alive. The stop
    // begins, and its body goes out from an I/O callback (the poll phase, as a database's
    // answer would), with the drain in that same turn, after it: the connection is idle when
    // the drain looks, and the client reads the answer only next turn.
    ctx.respond = false;
    ctx.res.writeHead(200, { 'content-length': String('/last'.length) });
    ctx.res.flushHeaders();
    closing = server.close();
    await turns();
    ctx.res.once('close', () => timers.fire(IDLE_DRAIN_MS));
    stat('.', () => ctx.res.end('/last'));
  });
  const server = await listen(koa, 0, '127.0.0.1', timers);
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  t.regex(await connection.send('/last'), /\r\nconnection: keep-alive\r\n/i);
  answeredThenClosed(t, await connection.send('/next'), '/next');
  await closing;
});

test.serial('a stop refuses new connections once a turn has accepted none, and closes a connection that stays idle when the idle drain is due', async (t) => {
  const timers = manualTimers();
  const server = await listen(app().koa, 0, '127.0.0.1', timers);
  const connection = await rawConnection(server.url);
  t.teardown(() => connection.socket.destroy());
  await connection.send('/first');
  let closed = false;
  const whenClosed = new Promise<void>((resolve) => connection.socket.once('close', () => ((closed = true), resolve())));
  const closing = server.close(10_000);
  t.deepEqual(timers.delays(), [ACCEPT_DRAIN_MS, 10_000], 'first the listener stays open for the accept queue');
  await turns();
  await t.throwsAsync(rawConnection(server.url), { code: 'ECONNREFUSED' });
  // The drain after a second, the cut at the end of the grace period; until then the idle
  // connection stays open, since a request may be on its way on it.
  t.deepEqual(timers.delays(), [IDLE_DRAIN_MS, 10_000]);
  await turns();
  t.false(closed);
  timers.fire(IDLE_DRAIN_MS);
  await whenClosed;
  await closing;
  t.deepEqual(timers.delays(), [], 'the stop leaves no timer behind');
});

test.serial('a stop answers the requests on connections the kernel completed before it, not yet accepted by the server', async (t) => {
  const server = await listen(app().koa, 0, '127.0.0.1');
  const { port } = new URL(server.url);
  // Made in this turn: the kernel completes each connection at once, and each client writes its
  // request as soon as it sees that, while the server accepts them only in a later poll phase.
  // Closing the listener before then would reset every one of them, requests and all.
  const answers = Array.from(
    { length: 8 },
    (_, i) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(Number(port), '127.0.0.1');
        t.teardown(() => socket.destroy());
        let text = '';
        socket.on('data', (chunk: Buffer) => {
          text += chunk.toString();
          if (text.endsWith(`/queued-${i}`)) resolve(text);
        });
        socket.on('error', reject);
        socket.on('close', () => reject(new Error(`closed with ${JSON.stringify(text)}`)));
        socket.write(`GET /queued-${i} HTTP/1.1\r\nHost: test\r\n\r\n`);
      }),
  );
  const closing = server.close();
  for (const [i, text] of (await Promise.all(answers)).entries()) {
    t.regex(text, /^HTTP\/1\.1 200/);
    t.true(text.endsWith(`/queued-${i}`));
  }
  await closing;
  await t.throwsAsync(rawConnection(server.url), { code: 'ECONNREFUSED' });
});

test.serial('a stop asked for twice is one stop: both calls resolve when it is over', async (t) => {
  const server = await listen(app().koa, 0, '127.0.0.1', manualTimers());
  const first = server.close();
  const second = server.close();
  t.is(second, first);
  await Promise.all([first, second]);
  t.is(await server.close(), undefined);
  await t.throwsAsync(rawConnection(server.url), { code: 'ECONNREFUSED' });
});
