import type { WitnessClient, WitnessReply } from '../../application/ports/log-cosignatures.js';

/** The largest answer read from a witness: a few cosignature lines, or a size. */
const MAX_REPLY_BYTES = 64 * 1024;

/**
 * add-checkpoint over HTTP (c2sp.org/tlog-witness): `POST <url>/add-checkpoint`, the body as
 * text; a request that takes longer than `timeoutMs` (connecting, sending or reading) is aborted.
 */
export class FetchWitnessClient implements WitnessClient {
  constructor(private readonly timeoutMs = 10_000) {}

  async addCheckpoint(url: string, body: string): Promise<WitnessReply> {
    const signal = AbortSignal.timeout(this.timeoutMs);
    const res = await fetch(`${url.replace(/\/+$/, '')}/add-checkpoint`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'text/plain; charset=utf-8' },
      signal,
      redirect: 'manual',
    });
    const text = await res.text();
    return { status: res.status, contentType: res.headers.get('content-type'), body: text.length > MAX_REPLY_BYTES ? text.slice(0, MAX_REPLY_BYTES) : text };
  }
}
