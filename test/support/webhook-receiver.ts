import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ExecutionContext } from 'ava';

export interface Received {
  readonly headers: IncomingHttpHeaders;
  /** The body exactly as sent. */
  readonly body: string;
  readonly path: string;
}

/** What the receiver answers a request with: a status, or nothing at all (it hangs). */
export type Answer = number | 'hang';

export interface WebhookReceiver {
  readonly url: string;
  readonly received: Received[];
  /** Decides each answer (200 unless told otherwise). */
  answer: (request: Received) => Answer;
  /** Resolves once `predicate` holds for what was received (checked on each delivery). */
  until(predicate: (received: readonly Received[]) => boolean, what: string, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** A real HTTP receiver on 127.0.0.1 that records every delivery; closed when the test ends. */
export async function startReceiver(t: ExecutionContext, path = '/hook'): Promise<WebhookReceiver> {
  const waiters: Array<() => void> = [];
  const hanging = new Set<ServerResponse>();
  const receiver: WebhookReceiver = {
    url: '',
    received: [],
    answer: () => 200,
    until: (predicate, what, timeoutMs = 30_000) =>
      new Promise<void>((resolve, reject) => {
        const check = () => {
          if (!predicate(receiver.received)) return false;
          clearTimeout(timer);
          resolve();
          return true;
        };
        const timer = setTimeout(
          () => reject(new Error(`the receiver did not get ${what} within ${timeoutMs} ms (got ${receiver.received.length} deliveries)`)),
          timeoutMs,
        );
        if (!check())
          waiters.push(function again() {
            if (!check()) waiters.push(again);
          });
      }),
    close: async () => {
      for (const res of hanging) res.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const got: Received = { headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), path: req.url ?? '' };
      receiver.received.push(got);
      const answer = receiver.answer(got);
      if (answer === 'hang') hanging.add(res);
      else res.writeHead(answer, { 'content-type': 'text/plain' }).end('ok');
      for (const w of waiters.splice(0)) w();
    });
  });
  server.keepAliveTimeout = 1000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  Object.assign(receiver, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}` });
  t.teardown(() => receiver.close());
  return receiver;
}

/** The events (parsed bodies) a receiver got, in the order it got them. */
export const bodiesOf = (received: readonly Received[]) =>
  received.map((r) => JSON.parse(r.body) as { id: string; type: string; wallet: string; timestamp: string; data: Record<string, unknown> });
