import { createServer, type Server, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type Koa from 'koa';

export interface RunningServer {
  readonly url: string;
  readonly server: Server;
  /**
   * Graceful stop: refuse new connections, let in-flight requests finish (up to `graceMs`),
   * then cut whatever is left.
   */
  close(graceMs?: number): Promise<void>;
}

/**
 * How long a stop waits before closing keep-alive connections that carry no request. A client
 * may already have sent its next request on one (it is on the wire, not yet read), and closing
 * the connection under it would lose that request; a connection in use is told to close with
 * its next answer instead, so after this long only really idle ones are left.
 */
const IDLE_DRAIN_MS = 1_000;

export async function listen(app: Koa, port: number, host: string): Promise<RunningServer> {
  let closing = false;
  const server = createServer(app.callback());
  // While stopping, answers close their connection (Connection: close), so a keep-alive
  // client ends it cleanly after its answer and opens no further request on it. That holds
  // for answers to requests that came before the stop but are written after it, too.
  const unanswered = new Set<ServerResponse>();
  server.on('request', (_req, res: ServerResponse) => {
    if (closing) {
      res.shouldKeepAlive = false;
      return;
    }
    unanswered.add(res);
    res.once('close', () => unanswered.delete(res));
  });
  // Behind a load balancer, keep-alive must outlive the balancer's idle timeout.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  server.requestTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}`,
    server,
    close: (graceMs = 10_000) =>
      new Promise<void>((resolve) => {
        closing = true;
        for (const res of unanswered) if (!res.headersSent) res.shouldKeepAlive = false;
        unanswered.clear();
        const cut = setTimeout(() => server.closeAllConnections(), graceMs);
        // A connection counts as idle until its next request has been read. Closing idle ones
        // from the check phase, right after the event loop's poll phase, reads a request that
        // has already arrived first, even when the loop ran late and the timer is overdue.
        const closeIdle = () => setImmediate(() => server.closeIdleConnections());
        const drain = setTimeout(() => {
          closeIdle();
          // Connections that finish a request later and then sit idle are closed as they do.
          idle = setInterval(closeIdle, 100);
        }, Math.min(IDLE_DRAIN_MS, graceMs));
        let idle: NodeJS.Timeout | undefined;
        // Stop accepting now. net.Server's close, not http.Server's: since Node 19 the latter
        // also closes every idle keep-alive connection at once, requests on their way included.
        net.Server.prototype.close.call(server, () => {
          clearTimeout(cut);
          clearTimeout(drain);
          clearInterval(idle);
          resolve();
        });
      }),
  };
}
