import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
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

export async function listen(app: Koa, port: number, host: string): Promise<RunningServer> {
  let closing = false;
  const server = createServer(app.callback());
  // While stopping, answers close their connection, so keep-alive clients cannot hold the stop open.
  server.on('request', (_req, res) => {
    if (closing) res.shouldKeepAlive = false;
    res.once('finish', () => closing && server.closeIdleConnections());
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
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
