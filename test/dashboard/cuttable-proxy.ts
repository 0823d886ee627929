import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CuttableProxy {
  /** http://127.0.0.1:<port>: the origin the browser uses. */
  readonly url: string;
  /** Drops every open connection, and refuses new ones while `refusing` (as a network gone away does). */
  cut(o: { refusing: boolean }): void;
  /** Takes connections again. */
  restore(): void;
  close(): Promise<void>;
}

/**
 * A TCP relay in front of the registry, so a test can break the page's connections mid-stream:
 * Chromium's offline emulation fails new requests but leaves an open stream running.
 */
export async function startCuttableProxy(target: string): Promise<CuttableProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let refusing = false;
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(port), hostname);
    for (const s of [client, upstream]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => undefined);
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut: (o) => {
      refusing = o.refusing;
      for (const s of open) s.destroy();
    },
    restore: () => void (refusing = false),
    close: async () => {
      for (const s of open) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
