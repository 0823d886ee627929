/** What a test reads of an answer: its status, headers and body (parsed when it is JSON). */
export interface Reply {
  status: number;
  headers: Headers;
  // Tests read whatever the route returns.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <credential>`: an API key, a dashboard token, or the test credential. */
  readonly credential?: string;
  /** Sent as `X-Wallet-Address`. */
  readonly wallet?: string;
  readonly body?: unknown;
  /** Send `body` (a string) as it is, not JSON-encoded: for malformed bodies. */
  readonly raw?: boolean;
  readonly headers?: Record<string, string>;
}

/**
 * One request to a registry the test started, as every harness sends it: JSON in, the answer
 * parsed when it says it is JSON, redirects returned rather than followed.
 */
export async function httpCall(baseUrl: string, method: string, path: string, o: CallOptions = {}): Promise<Reply> {
  const res = await fetch(baseUrl + path, {
    method,
    headers: {
      ...(o.credential !== undefined ? { authorization: `Bearer ${o.credential}` } : {}),
      ...(o.wallet !== undefined ? { 'x-wallet-address': o.wallet } : {}),
      ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...o.headers,
    },
    ...(o.body !== undefined ? { body: o.raw === true ? String(o.body) : JSON.stringify(o.body) } : {}),
    redirect: 'manual',
  });
  const text = await res.text();
  const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
  return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
}
