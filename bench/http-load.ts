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
}

/** Drives POST requests with autocannon and reads its latency histogram. */
export async function load(o: LoadOptions): Promise<LoadFigures> {
  let next = 0;
  const result = await autocannon({
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
        setupRequest: (req) => ({ ...req, body: o.bodies[next++ % o.bodies.length] }),
      },
    ],
  });
  if (next > o.bodies.length && !o.reuseBodies) console.warn(`warning: ${next} requests but only ${o.bodies.length} distinct bodies; later ones were duplicates`);
  return {
    requestsPerSec: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors,
    total: result.requests.total,
  };
}
