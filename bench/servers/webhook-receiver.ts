import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A webhook receiver that does next to nothing: it answers every POST 200 and keeps, for each,
 * when it arrived (this machine's clock, as the registry's event times are), the event's id,
 * the proof it is about and the event's own time. It runs in a process of its own, so that
 * its work never waits on the registry's event loop, nor the registry's on it.
 *
 * - `POST /…`: a delivery;
 * - `GET /arrivals?from=n`: the deliveries from the n-th on, `[webhookId, proofId, arrivedMs, eventMs]` each;
 * - `GET /sample`: the first delivery's headers and body, to check its signature.
 *
 * Prints one JSON line `{url}` once it listens.
 */
type Arrival = [webhookId: string, proofId: string, arrivedMs: number, eventMs: number];

const arrivals: Arrival[] = [];
let sample: { headers: IncomingMessage['headers']; body: string } | null = null;

function delivery(req: IncomingMessage, body: string): void {
  const arrivedMs = Date.now();
  let proofId = '';
  let eventMs = Number.NaN;
  try {
    const event = JSON.parse(body) as { timestamp?: string; data?: { proof_id?: string } };
    proofId = event.data?.proof_id ?? '';
    eventMs = Date.parse(event.timestamp ?? '');
  } catch {
    // Kept all the same, with no proof and no time: the bench counts it as unreadable.
  }
  arrivals.push([String(req.headers['webhook-id'] ?? ''), proofId, arrivedMs, eventMs]);
  sample ??= { headers: req.headers, body };
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://receiver');
  if (req.method === 'GET' && url.pathname === '/arrivals') {
    const from = Math.max(0, Number(url.searchParams.get('from') ?? 0) || 0);
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(arrivals.slice(from)));
    return;
  }
  if (req.method === 'GET' && url.pathname === '/sample') {
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(sample));
    return;
  }
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    delivery(req, Buffer.concat(chunks).toString('utf8'));
    res.writeHead(200, { 'content-length': 0 }).end();
  });
});
// Longer than the registry's idle connections, so that the receiver never closes one under a request.
server.keepAliveTimeout = 60_000;
server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` })}\n`);
});
process.on('SIGTERM', () => process.exit(0));
