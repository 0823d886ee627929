import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** How long a client may take, and how many connections it may hold. */
export interface ConnectionLimits {
  /** From a connection's first byte (or its previous answer) to the end of the request's headers. */
  readonly headersTimeoutMs: number;
  /** From the same start to the last byte of the request's body. */
  readonly requestTimeoutMs: number;
  /** How long a keep-alive connection may sit idle between requests. */
  readonly keepAliveTimeoutMs: number;
  /** Open connections the whole server holds at most; further ones are closed as they are accepted. */
  readonly maxConnections: number;
  /** Open connections one client address holds at most (0: no cap per address). */
  readonly maxConnectionsPerIp: number;
}

export const DEFAULT_CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 60_000,
  // Behind a load balancer, keep-alive must outlive the balancer's idle timeout.
  keepAliveTimeoutMs: 65_000,
  maxConnections: 4_096,
  maxConnectionsPerIp: 256,
};

/**
 * Descriptors kept free of connections: the database pool, the writer thread's connection,
 * worker threads, Redis, the data directory's files. A server holding as many sockets as the
 * process may open descriptors could open none of these, and every request would fail.
 */
export const RESERVED_DESCRIPTORS = 256;

/** The process's open-file limit (Linux: /proc/self/limits, after Node raised it to the hard limit); null when unknown. */
export function descriptorLimit(read: () => string = () => readFileSync('/proc/self/limits', 'utf8')): number | null {
  try {
    const line = /^Max open files\s+(\S+)/m.exec(read());
    const soft = line?.[1];
    if (soft === undefined || soft === 'unlimited') return null;
    const n = Number(soft);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  } catch {
    return null;
  }
}

/** The global cap actually applied: the configured one, kept below the descriptor limit. */
export function effectiveMaxConnections(configured: number, limit: number | null): number {
  if (limit === null) return configured;
  return Math.max(1, Math.min(configured, limit - RESERVED_DESCRIPTORS));
}

export interface ConnectionCounts {
  /** Connections open now. */
  open(): number;
  /** Connections closed at once because their address held its share (since start). */
  refusedPerIp(): number;
  /** Connections closed at once because the server held its cap (since start). */
  refusedGlobal(): number;
}

/**
 * Caps open connections per client address and in all. The per-address cap is what keeps one
 * client holding thousands of idle or half-sent connections (slow-loris) from taking every
 * descriptor or connection slot: past its share, its new connections are closed before HTTP
 * reads a byte of them, while other addresses are still served. The address is the socket's
 * peer: behind a reverse proxy every connection comes from the proxy, so there the proxy must
 * cap per client and this cap be raised or turned off (MAX_CONNECTIONS_PER_IP=0).
 *
 * Installed in front of the HTTP server's own connection listener, so a refused socket is never
 * handed to the HTTP parser.
 */
export function guardConnections(server: Server, limits: Pick<ConnectionLimits, 'maxConnections' | 'maxConnectionsPerIp'>): ConnectionCounts {
  // Node closes connections past maxConnections as it accepts them ('drop'), before any listener.
  server.maxConnections = limits.maxConnections;
  let refusedGlobal = 0;
  let refusedPerIp = 0;
  let open = 0;
  server.on('drop', () => void refusedGlobal++);
  const perIp = new Map<string, number>();
  const httpListeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const address = socket.remoteAddress ?? '';
    const held = perIp.get(address) ?? 0;
    if (limits.maxConnectionsPerIp > 0 && held >= limits.maxConnectionsPerIp) {
      refusedPerIp++;
      socket.destroy();
      return;
    }
    perIp.set(address, held + 1);
    open++;
    socket.once('close', () => {
      open--;
      const left = (perIp.get(address) ?? 1) - 1;
      if (left <= 0) perIp.delete(address);
      else perIp.set(address, left);
    });
    for (const listener of httpListeners) listener.call(server, socket);
  });
  return { open: () => open, refusedPerIp: () => refusedPerIp, refusedGlobal: () => refusedGlobal };
}
