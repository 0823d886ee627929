import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type OutgoingHttpHeaders } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { WebhookRequest, WebhookResponse, WebhookTransport } from '../../application/ports/webhook-transport.js';
import { AddressRefusedError, guardedLookup, hostProblem, type Resolve } from './address-guard.js';

export interface NodeWebhookTransportOptions {
  /** One deadline for the whole attempt: lookup, connect, request, headers and body. */
  readonly timeoutMs?: number;
  /** How much of a response body is read; the rest is never received. */
  readonly maxResponseBytes?: number;
  /** Lets webhooks reach loopback, private and other internal addresses: for tests and closed networks only. */
  readonly allowPrivate?: boolean;
  readonly userAgent?: string;
  /** The resolver the address guard asks; the system's by default. */
  readonly resolve?: Resolve;
  /**
   * Connections to one host at once (default 32): as many as the attempts one endpoint may have
   * in flight (WEBHOOK_PER_ENDPOINT), so that none of them spends its deadline queued here.
   */
  readonly maxSocketsPerHost?: number;
}

export const DEFAULT_TIMEOUT_MS = 15_000;
const DEFAULT_MAX_RESPONSE_BYTES = 4096;
const DEFAULT_USER_AGENT = 'proof-registry-webhooks/1';
const DEFAULT_MAX_SOCKETS_PER_HOST = 32;
/** An idle kept-alive connection is closed after this, or sooner when the receiver's Keep-Alive header says so. */
const IDLE_SOCKET_MS = 30_000;

type Outcome = Omit<WebhookResponse, 'latencyMs'>;

/**
 * Posts webhooks with node:http and node:https. Receivers are untrusted: each attempt has one
 * deadline that a slow or trickling receiver cannot stretch, reads at most a small excerpt of
 * the answer, never follows a redirect (which would take the request to an address nobody
 * checked), and connects only to addresses the guard has judged (see address-guard.ts).
 */
export class NodeWebhookTransport implements WebhookTransport {
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly allowPrivate: boolean;
  private readonly userAgent: string;
  private readonly lookup: LookupFunction;
  private readonly httpAgent: HttpAgent;
  private readonly httpsAgent: HttpsAgent;
  private closed = false;

  constructor(options: NodeWebhookTransportOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.allowPrivate = options.allowPrivate ?? false;
    this.userAgent = options.userAgent ?? DEFAULT_USER_AGENT;
    this.lookup = guardedLookup(this.allowPrivate, options.resolve);
    const agentOptions = { keepAlive: true, maxSockets: options.maxSocketsPerHost ?? DEFAULT_MAX_SOCKETS_PER_HOST, timeout: IDLE_SOCKET_MS };
    this.httpAgent = new HttpAgent(agentOptions);
    this.httpsAgent = new HttpsAgent(agentOptions);
  }

  /** Posts `request`; `timeoutMs`, when given, is what is left of an attempt begun elsewhere (threaded-webhook-transport.ts). */
  async post(request: WebhookRequest, timeoutMs = this.timeoutMs): Promise<WebhookResponse> {
    const started = performance.now();
    let outcome: Outcome;
    try {
      outcome = timeoutMs <= 0 ? failed(`timed out after ${this.timeoutMs / 1000} s`) : await this.send(request, started + timeoutMs);
    } catch (error) {
      // Nothing should throw here; if something does, it is still only a failed attempt.
      outcome = failed(describe(error));
    }
    return { ...outcome, latencyMs: performance.now() - started };
  }

  async close(): Promise<void> {
    this.closed = true;
    this.httpAgent.destroy();
    this.httpsAgent.destroy();
  }

  private async send(request: WebhookRequest, deadline: number): Promise<Outcome> {
    if (this.closed) return failed('the transport is closed');
    let url: URL;
    try {
      url = new URL(request.url);
    } catch {
      return failed('not a valid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return failed(`unsupported scheme ${url.protocol} (http or https only)`);
    // Literal addresses never reach the lookup, so they are judged here; names are judged again on what they resolve to.
    const problem = hostProblem(url.hostname, this.allowPrivate);
    if (problem !== null) return failed(`refused: ${url.hostname} is ${problem}`);
    return this.exchange(url, request, deadline, true);
  }

  private exchange(url: URL, request: WebhookRequest, deadline: number, mayRetry: boolean): Promise<Outcome> {
    return new Promise<Outcome>((resolve) => {
      const secure = url.protocol === 'https:';
      const body = Buffer.from(request.body, 'utf8');
      const headers: OutgoingHttpHeaders = { 'user-agent': this.userAgent };
      for (const [name, value] of Object.entries(request.headers)) headers[name.toLowerCase()] = value;
      Object.assign(headers, { 'content-type': 'application/json', 'content-length': body.length });

      const chunks: Buffer[] = [];
      let received = 0;
      let statusCode: number | null = null;
      let settled = false;
      // `stream` leaves out a character the cap cut in half rather than showing it as U+FFFD.
      const excerpt = () => new TextDecoder().decode(Buffer.concat(chunks).subarray(0, this.maxResponseBytes), { stream: true });
      // Once the status has arrived, the receiver has answered: what follows only adds to the excerpt.
      const finish = (error: unknown) => settle(statusCode === null ? failed(describe(error)) : answered(statusCode, excerpt()));
      const abort = new AbortController();
      const timer = setTimeout(
        () => {
          finish(`timed out after ${this.timeoutMs / 1000} s`);
          // Aborting destroys the request and its socket, whatever stage it is in.
          abort.abort();
        },
        Math.max(0, deadline - performance.now()),
      );
      function settle(outcome: Outcome | Promise<Outcome>): void {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve(outcome);
      }

      let req: ClientRequest;
      try {
        req = (secure ? httpsRequest : httpRequest)({
          protocol: url.protocol,
          hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
          port: url.port === '' ? undefined : Number(url.port),
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers,
          agent: secure ? this.httpsAgent : this.httpAgent,
          lookup: this.lookup,
          signal: abort.signal,
        });
      } catch (error) {
        // http.request throws for a header it cannot send (a line break in a value, say).
        finish(error);
        return;
      }
      req.on('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection the receiver closed meanwhile: the request never reached it, so it is sent once more.
        if (!settled && mayRetry && statusCode === null && req.reusedSocket && error.code === 'ECONNRESET') {
          settle(this.exchange(url, request, deadline, false));
          return;
        }
        finish(error);
      });
      req.on('response', (res) => {
        statusCode = res.statusCode ?? null;
        const done = () => finish(null);
        if (this.maxResponseBytes <= 0) {
          done();
          res.destroy();
          return;
        }
        res.on('data', (chunk: Buffer) => {
          if (settled) return;
          chunks.push(chunk);
          received += chunk.length;
          if (received >= this.maxResponseBytes) {
            done();
            // Unread bytes would stay in the connection: close it rather than read a body of any size.
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      });
      req.end(body);
    });
  }
}

const failed = (error: string): Outcome => ({ statusCode: null, error, bodyExcerpt: '' });

function answered(statusCode: number, bodyExcerpt: string): Outcome {
  if (statusCode >= 200 && statusCode < 300) return { statusCode, error: null, bodyExcerpt };
  const error = statusCode >= 300 && statusCode < 400 ? `redirect (${statusCode}) not followed` : `answered ${statusCode}`;
  return { statusCode, error, bodyExcerpt };
}

const MESSAGES: Readonly<Record<string, string>> = {
  ECONNREFUSED: 'connection refused',
  ECONNRESET: 'connection reset',
  EPIPE: 'connection closed while sending',
  EHOSTUNREACH: 'host unreachable',
  ENETUNREACH: 'network unreachable',
  ETIMEDOUT: 'connect timed out',
};

/** A short sentence for an attempt's log: no stack, no internals. */
function describe(error: unknown): string {
  if (typeof error === 'string') return error;
  if (error instanceof AddressRefusedError) return error.message;
  // With several addresses Node tries each and reports them together; the first says enough.
  const first = error instanceof AggregateError && error.errors.length > 0 ? (error.errors[0] as unknown) : error;
  if (first instanceof AddressRefusedError) return first.message;
  const { code, message, hostname } = (first ?? {}) as { code?: string; message?: string; hostname?: string };
  if (code !== undefined && Object.hasOwn(MESSAGES, code)) return MESSAGES[code]!;
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EAI_FAIL') return `DNS lookup of ${hostname ?? 'the host'} failed (${code})`;
  const text = `${code ?? 'error'}: ${message ?? String(first)}`;
  return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}
