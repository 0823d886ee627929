import { createServer, ServerResponse, STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type Koa from 'koa';
import { DEFAULT_CONNECTION_LIMITS, guardConnections, type ConnectionCounts, type ConnectionLimits } from './connection-guard.js';

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  /** Open connections and those refused by the caps. */
  readonly connections: ConnectionCounts;
  /**
   * Graceful stop: accept the connections already made, then refuse new ones (two turns of
   * the event loop from the call), let in-flight requests finish (up to `graceMs`), then cut
   * whatever is left.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * How long a stop waits, once it has closed the listener, before closing keep-alive connections
 * that carry no request. A client may already have sent its next request on one (it is on the
 * wire, not yet read), and closing the connection under it would lose that request; a
 * connection in use is told to close with its next answer instead, so after this long only
 * really idle ones are left.
 *
 * Even then a connection is closed only when it has stayed idle, with no byte read, for two
 * turns of the event loop: a client that had its last answer when the connection was seen idle
 * has written its next request by the following turn's I/O (a client in this process included,
 * however late the loop runs), and the server has read it by the turn after that.
 */
export const IDLE_DRAIN_MS = 1_000;

/**
 * How long a stop goes on accepting the connections the kernel has already completed, at most;
 * it stops listening sooner, as soon as they are all accepted (see `close`).
 */
export const ACCEPT_DRAIN_MS = 1_000;

/** The timers a stop runs on; tests pass their own to decide when each one fires. */
export interface StopTimers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
  setInterval(fn: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

const nodeTimers: StopTimers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export async function listen(
  app: Koa,
  port: number,
  host: string,
  timers: StopTimers = nodeTimers,
  limits: ConnectionLimits = DEFAULT_CONNECTION_LIMITS,
): Promise<RunningServer> {
  let closing = false;
  const handle = app.callback();
  // The header and request deadlines run from a request's first byte, so trickling bytes does
  // not stretch them; Node checks them every connectionsCheckingInterval (30 s by default, which
  // would let a slow client hold its connection that much longer than the deadline says).
  const server = createServer(
    {
      headersTimeout: limits.headersTimeoutMs,
      requestTimeout: limits.requestTimeoutMs,
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(100, Math.min(1_000, Math.floor(limits.headersTimeoutMs / 4))),
    },
    handle,
  );
  const connections = guardConnections(server, limits);
  server.on('clientError', answerUnreadable);
  // CONNECT is taken out of the HTTP exchange for tunnelling; this is no proxy, so the app
  // answers it as any method (405 with Allow on a route, 404 elsewhere) and the connection ends.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as net.Socket);
    res.once('finish', () => socket.end());
    void handle(req, res);
  });
  // While stopping, answers close their connection (Connection: close), so a keep-alive
  // client ends it cleanly after its answer and opens no further request on it. That holds
  // for answers to requests that came before the stop but are written after it, too.
  const unanswered = new Set<ServerResponse>();
  // Requests each open connection has in the app; a connection with none is idle.
  const requests = new Map<net.Socket, number>();
  const count = (socket: net.Socket, by: number) => {
    const n = requests.get(socket);
    if (n !== undefined) requests.set(socket, n + by);
  };
  let accepted = 0;
  server.on('connection', (socket: net.Socket) => {
    accepted++;
    requests.set(socket, 0);
    socket.once('close', () => requests.delete(socket));
  });
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    count(req.socket, 1);
    res.once('close', () => count(req.socket, -1));
    if (closing) {
      res.shouldKeepAlive = false;
      return;
    }
    unanswered.add(res);
    res.once('close', () => unanswered.delete(res));
  });
  /** Idle connections, with the bytes read on each so far. */
  const idleNow = () => new Map([...requests].filter(([, requests]) => requests === 0).map(([socket]) => [socket, socket.bytesRead]));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // A deep accept queue (the kernel caps it at net.core.somaxconn): a burst of connections,
    // an attacker's included, must not fill it, or other clients' connections wait for a SYN
    // retry (1 s and more) before the per-address cap can even see them.
    server.listen({ port, host, backlog: LISTEN_BACKLOG }, () => resolve());
  });
  let stopped: Promise<void> | undefined;
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    connections,
    // A second call is the first one's stop, not a new one.
    close: (graceMs = 10_000) =>
      (stopped ??= new Promise<void>((resolve) => {
        // The kernel completes a connection before the server accepts it, and its client may
        // send a request on it at once; closing the listener resets every connection still in
        // the accept queue, requests and all. libuv accepts one connection a turn of the event
        // loop, so the listener stays open until a whole poll phase begun after the stop has
        // accepted none (the queue was empty), ACCEPT_DRAIN_MS at most, and is closed in the
        // check phase after it. Until then answers keep their connections alive, so no client
        // is sent off to open a new connection that the close would then reset; from then on
        // answers close them, and new connections are refused.
        // The grace period runs from the call: it bounds the whole stop.
        const cut = timers.setTimeout(() => server.closeAllConnections(), graceMs);
        let noted = -1;
        const acceptBound = timers.setTimeout(() => stopListening(), Math.min(ACCEPT_DRAIN_MS, graceMs));
        const acceptQueued = () =>
          setImmediate(() => {
            if (closing) return;
            if (accepted === noted) stopListening();
            else {
              noted = accepted;
              acceptQueued();
            }
          });
        acceptQueued();
        const stopListening = () => {
          if (closing) return;
          timers.clearTimeout(acceptBound);
          closing = true;
          for (const res of unanswered) if (!res.headersSent) res.shouldKeepAlive = false;
          unanswered.clear();
          // A round notes the idle connections in the check phase, right after the event loop's
          // poll phase, and two turns later closes those still idle with no byte read since.
          const round = () =>
            setImmediate(() => {
              const seen = idleNow();
              afterTurns(2, () => {
                const still = idleNow();
                for (const [socket, bytes] of seen) if (still.get(socket) === bytes) socket.destroy();
              });
            });
          const drain = timers.setTimeout(
            () => {
              round();
              // Connections that finish a request later and then sit idle are closed as they do.
              idle = timers.setInterval(round, 100);
            },
            Math.min(IDLE_DRAIN_MS, graceMs),
          );
          let idle: unknown;
          // Stop accepting now. net.Server's close, not http.Server's: since Node 19 the latter
          // also closes every idle keep-alive connection at once, requests on their way included.
          net.Server.prototype.close.call(server, () => {
            timers.clearTimeout(cut);
            timers.clearTimeout(drain);
            if (idle !== undefined) timers.clearInterval(idle);
            resolve();
          });
        };
      })),
  };
}

/** Runs `fn` in the check phase `turns` turns of the event loop from this one's. */
function afterTurns(turns: number, fn: () => void): void {
  setImmediate(() => (turns > 1 ? afterTurns(turns - 1, fn) : fn()));
}

/** Pending connections the kernel may queue before they are accepted. */
const LISTEN_BACKLOG = 4_096;

/** How long a refused connection may take to read its answer before it is cut anyway. */
const UNREADABLE_LINGER_MS = 2_000;

/**
 * A request Node's HTTP parser cannot read never reaches the app; it still gets the JSON
 * `{detail, code}` every other error has (Node's own answer is a bare status line), and the
 * connection closes, as the rest of its bytes cannot be trusted.
 *
 * Closes means destroyed, not half-closed: the HTTP server allows half-open sockets, so ending
 * our side alone would keep the descriptor until the client closes its own, and a client that
 * never does (slow-loris: partial headers, a 408, then silence) would keep every one it opened.
 * The socket is destroyed as soon as the answer is handed to the kernel, and after a short
 * linger at most if the client does not even read it.
 */
function answerUnreadable(err: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Duplex): void {
  // Nothing to answer on a connection already gone, nor in the middle of another response.
  const inProgress = (socket as { _httpMessage?: { headersSent?: boolean } | null })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || inProgress?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, code, detail] = unreadable(err);
  const body = JSON.stringify({ detail, code });
  const linger = setTimeout(() => socket.destroy(), UNREADABLE_LINGER_MS);
  linger.unref();
  socket.once('close', () => clearTimeout(linger));
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    () => socket.destroy(),
  );
}

function unreadable(err: NodeJS.ErrnoException & { rawPacket?: Buffer }): [number, string, string] {
  switch (err.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, 'headers_too_large', 'the request line and headers are too large (16 KiB at most)'];
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'request_timeout', 'the request did not arrive in time'];
    case 'HPE_INVALID_METHOD': {
      // The method token, if it is one (RFC 9110 tchar), to name it; never anything else of the request.
      const method = /^[!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}(?= )/.exec(err.rawPacket?.toString('latin1') ?? '')?.[0];
      return [400, 'bad_request', method ? `malformed HTTP request: "${method}" is not an HTTP method this server reads` : 'malformed HTTP request'];
    }
    default:
      return [400, 'bad_request', 'malformed HTTP request'];
  }
}
