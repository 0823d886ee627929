import autocannon from 'autocannon';

export interface LoadFigures {
  readonly requestsPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly total: number;
}

export interface LoadOptions {
  readonly url: string;
  readonly path: string;
  readonly headers: Record<string, string>;
  /** Request bodies, each used once: every submission is a distinct proof. */
  readonly bodies: readonly string[];
  /** The server keeps nothing (the ceiling), so bodies may be sent again once all have gone. */
  readonly reuseBodies?: boolean;
  readonly connections: number;
  readonly durationS: number;
  /** Fixed total request rate (req/s) instead of as fast as possible. */
  readonly rate?: number;
  /** Where in `bodies` to go on from, shared by runs that continue one another (default: from the first). */
  readonly cursor?: { next: number };
  /** Receives each response's latency (ms), for figures over several runs. */
  readonly onLatency?: (ms: number) => void;
  /** Receives each response's status and body (autocannon then reads every body). */
  readonly onResponse?: (status: number, body: string) => void;
}

/** Drives POST requests with autocannon and reads its latency histogram. */
export async function load(o: LoadOptions): Promise<LoadFigures & { readonly durationS: number }> {
  const cursor = o.cursor ?? { next: 0 };
  const options: autocannon.Options = {
    url: o.url,
    connections: o.connections,
    duration: o.durationS,
    pipelining: 1,
    ...(o.rate ? { overallRate: o.rate } : {}),
    requests: [
      {
        method: 'POST',
        path: o.path,
        headers: { 'content-type': 'application/json', ...o.headers },
        setupRequest: (req) => ({ ...req, body: o.bodies[cursor.next++ % o.bodies.length] }),
        ...(o.onResponse && { onResponse: (status: number, body: string) => o.onResponse!(status, body) }),
      },
    ],
  };
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (err: unknown, r: autocannon.Result) =>
      err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r),
    );
    const onLatency = o.onLatency;
    if (onLatency) instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) => onLatency(ms));
  });
  if (cursor.next > o.bodies.length && !o.reuseBodies)
    console.warn(`warning: ${cursor.next} requests but only ${o.bodies.length} distinct bodies; later ones were duplicates`);
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
    durationS: result.duration,
  };
}
