import { setTimeout as delay } from 'node:timers/promises';
import { EVENT_TYPES, isEventType, parseEventId } from '../../domain/events/event.js';
import { CliError, EXIT_INVALID, EXIT_OK, parseCommandArgs, type CliIo, type Command } from './command.js';
import { render } from './event-line.js';
import { loadSession, serviceUrl, sessionPath, type ServiceSession } from './service-session.js';
import { parseSse, sseStart } from './sse-parser.js';

type Env = Readonly<Record<string, string | undefined>>;

const USAGE = `Usage: proof-registry events tail [--types <a,b>] [--after <evt_id> | --from-start] [--count <n>] [--json] [options]

Follows the wallet's events as they happen and prints one line per event: a summary, or
with --json the event as the service sent it (JSON Lines, for jq). When the connection
drops it reconnects, waiting longer after each failure, and resumes after the last event
it printed: none is missed or printed twice. Ctrl-C (SIGINT) or SIGTERM stops it.
Exit code: 0 stopped (a signal, or --count events printed), 1 the service refused the
credential or the request, 2 usage error or a service that cannot be reached at the start.

Options:
  --types <a,b>       only these event types: ${EVENT_TYPES.join(', ')}
  --after <evt_id>    start after this event (an id printed earlier); default: new events only
  --from-start        first print the events the service keeps (30 days by default), then follow
  --count <n>         stop after n events
  --json              print each event as JSON, one per line
  --key <api key>     an API key (default: PROOF_REGISTRY_API_KEY, else the session of login)
  --wallet <address>  the key's wallet (default: PROOF_REGISTRY_WALLET, or the session's)
  --url <service>     the service (default: PROOF_REGISTRY_URL, or the session's, or http://127.0.0.1:8080)
  --session <file>    the saved session to use (default: as login)
  -h, --help          show this help
`;

const TEXT = { type: 'string' } as const;
const FLAG = { type: 'boolean' } as const;
const OPTIONS = {
  types: { type: 'string', multiple: true },
  after: TEXT,
  'from-start': FLAG,
  count: TEXT,
  json: FLAG,
  key: TEXT,
  wallet: TEXT,
  url: TEXT,
  session: TEXT,
} as const;

/** The id before every event: the stream then starts with everything the service keeps. */
const FIRST = 'evt_0000000000000000';
/** The wait until the service says (`retry:`), as EventSource does; after repeated failures it doubles up to MAX_WAIT_MS. */
const [DEFAULT_RETRY_MS, MAX_WAIT_MS] = [3000, 60_000];

/** What the command needs from the process; tests pass their own to control time and signals. */
export interface TailDeps {
  /** Waits before a reconnection; ends early when `signal` aborts. */
  readonly wait: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Calls `stop` on SIGINT or SIGTERM; returns the way to stop listening. */
  readonly onInterrupt: (stop: () => void) => () => void;
  /** A connection silent this long is taken for dead (the service sends a comment every 15 s). */
  readonly idleMs: number;
  /** Spreads reconnections, so the clients of a restarted service do not all come back at once. */
  readonly random: () => number;
}

const processDeps: TailDeps = {
  wait: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
  onInterrupt: (stop) => {
    process.once('SIGINT', stop).once('SIGTERM', stop);
    return () => void process.off('SIGINT', stop).off('SIGTERM', stop);
  },
  idleMs: 45_000,
  random: Math.random,
};

export function createEventsCommand(env: Env, deps: TailDeps = processDeps): Command {
  return {
    summary: "follow the wallet's events as they happen (tail)",
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, positionals, help } = parseCommandArgs(args, OPTIONS, { min: 1, max: 1, name: 'events command (tail)' });
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      if (positionals[0] !== 'tail') throw new CliError(`unknown events command ${JSON.stringify(positionals[0])}: tail`);
      const types = [
        ...new Set(
          (values.types ?? [])
            .flatMap((t) => t.split(','))
            .map((t) => t.trim())
            .filter((t) => t !== ''),
        ),
      ];
      const unknown = types.filter((t) => !isEventType(t));
      if (unknown.length > 0)
        throw new CliError(`unknown event type ${unknown.map((t) => JSON.stringify(t)).join(', ')}; the types are ${EVENT_TYPES.join(', ')}`);
      if (values.after !== undefined && parseEventId(values.after) === null)
        throw new CliError(`--after must be an event id (evt_ and 16 digits), got ${JSON.stringify(values.after)}`);
      if (values.after !== undefined && values['from-start']) throw new CliError('--after and --from-start both say where to start: give one');
      if (values.count !== undefined && !/^[1-9][0-9]{0,8}$/.test(values.count))
        throw new CliError(`--count must be a whole number of events, at least 1 (got ${JSON.stringify(values.count)})`);
      const access = await credentials(values, env, io);
      const after = values.after ?? (values['from-start'] ? FIRST : undefined);
      const query = new URLSearchParams(Object.entries({ types: types.join(','), after: after ?? '' }).filter(([, v]) => v !== '')).toString();
      const stream = `${access.url}/v1/events/stream${query && `?${query}`}`;
      return tail(
        {
          ...access,
          stream,
          count: values.count === undefined ? null : Number(values.count),
          json: values.json === true,
          start: values.after !== undefined ? `after ${values.after}` : after === FIRST ? 'from the first event kept' : null,
        },
        io,
        deps,
      );
    },
  };
}

export const eventsCommand: Command = createEventsCommand(process.env);

interface Tail {
  readonly url: string;
  /** The credential: an API key, or the dashboard token of a session, for this wallet. */
  readonly token: string;
  readonly wallet: string;
  /** The stream's URL, with the query of the first connection (`after` stays on later ones; Last-Event-ID takes its place). */
  readonly stream: string;
  readonly count: number | null;
  readonly json: boolean;
  /** Where the stream starts until an event is printed ("after evt_…"), for the messages that say so; null: new events only. */
  readonly start: string | null;
}

/** As submit: an API key with its wallet, else the session login saved (a dashboard token, which the stream takes too). */
async function credentials(
  values: { key?: string; wallet?: string; url?: string; session?: string },
  env: Env,
  io: CliIo,
): Promise<Pick<Tail, 'url' | 'token' | 'wallet'>> {
  const key = values.key || env['PROOF_REGISTRY_API_KEY'];
  const walletGiven = values.wallet || env['PROOF_REGISTRY_WALLET'];
  const session: ServiceSession | null =
    key && walletGiven
      ? null
      : await loadSession(sessionPath(values.session, env, io.cwd)).catch((error: unknown) => {
          if (key) return null;
          throw new CliError(`${(error as Error).message}; or give an API key (--key or PROOF_REGISTRY_API_KEY) with its wallet`);
        });
  const wallet = walletGiven || session?.wallet;
  if (!wallet) throw new CliError("--wallet is required (or set PROOF_REGISTRY_WALLET, or sign in with proof-registry login): the key's wallet address");
  const url = values.url || env['PROOF_REGISTRY_URL'] ? serviceUrl(values.url, env) : (session?.url ?? serviceUrl(undefined, env));
  if (!/^https?:\/\//.test(url)) throw new CliError(`--url must start with http:// or https:// (got ${JSON.stringify(url)})`);
  return { url, wallet, token: key || session!.access_token };
}

/** How one connection ended: the end of the command, or a reason to reconnect (after at least `waitMs`; `unreached`: no connection at all). */
type Ended = { readonly stop: true } | { readonly stop: false; readonly reason: string; readonly unreached?: string; readonly waitMs?: number };

async function tail(o: Tail, io: CliIo, deps: TailDeps): Promise<number> {
  const stopped = new AbortController();
  const unlisten = deps.onInterrupt(() => stopped.abort());
  let [sse, printed, failures, connected] = [sseStart(), 0, 0, false];
  try {
    for (let attempt = 0; !stopped.signal.aborted; attempt++) {
      const resume = sse.lastEventId;
      const ended = await connect(o, resume, stopped.signal, deps.idleMs, {
        opened: () => {
          failures = 0;
          const from = resume !== '' ? `resuming after ${resume}` : o.start;
          io.stderr.write(`proof-registry: ${connected ? 'reconnected' : `following the events of ${o.wallet} at ${o.url}`}${from ? `, ${from}` : ''}\n`);
          connected = true;
        },
        chunk: (text) => {
          const parsed = parseSse(sse, text);
          sse = parsed.state;
          for (const message of parsed.messages) {
            io.stdout.write(`${render(message, o.json)}\n`);
            if (++printed === o.count) return true;
          }
          return false;
        },
      });
      if (ended.stop) return EXIT_OK;
      // A service that cannot be reached at all is more likely a wrong --url than an outage.
      if (attempt === 0 && ended.unreached !== undefined)
        throw new CliError(`cannot reach the service at ${o.url} (${ended.unreached}); is it running? (--url or PROOF_REGISTRY_URL)`);
      failures++;
      const base = Math.min(MAX_WAIT_MS, Math.max(sse.retryMs ?? DEFAULT_RETRY_MS, ended.waitMs ?? 0) * 2 ** Math.min(failures - 1, 10));
      // Up to half again as long, never less: a Retry-After is a floor.
      const waitMs = Math.round(base + (deps.random() * base) / 2);
      io.stderr.write(`proof-registry: ${ended.reason}; reconnecting in ${+(waitMs / 1000).toFixed(1)} s\n`);
      sse = sseStart(sse.lastEventId, sse.retryMs);
      await deps.wait(waitMs, stopped.signal);
    }
    return EXIT_OK;
  } finally {
    unlisten();
  }
}

/** One connection; `chunk` takes the text read and says when the command has printed all it was asked for. */
async function connect(o: Tail, resume: string, stopped: AbortSignal, idleMs: number, on: { opened(): void; chunk(text: string): boolean }): Promise<Ended> {
  const connection = new AbortController();
  const cut = () => connection.abort();
  stopped.addEventListener('abort', cut, { once: true });
  let [idle, opened] = [false, false];
  let timer = setTimeout(() => ((idle = true), cut()), idleMs);
  try {
    const headers = {
      accept: 'text/event-stream',
      'cache-control': 'no-store',
      authorization: `Bearer ${o.token}`,
      'x-wallet-address': o.wallet,
      ...(resume !== '' && { 'last-event-id': resume }),
    };
    const res = await fetch(o.stream, { headers, signal: connection.signal });
    if (res.status !== 200) return await refused(res);
    const type = res.headers.get('content-type') ?? 'no content type';
    if (!type.startsWith('text/event-stream'))
      throw new CliError(`GET /v1/events/stream answered ${type}, not an event stream: is ${o.url} a Proof Registry?`, EXIT_INVALID);
    opened = true;
    on.opened();
    const [reader, decoder] = [res.body!.getReader(), new TextDecoder()];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { stop: false, reason: 'the service ended the stream' };
      clearTimeout(timer);
      timer = setTimeout(() => ((idle = true), cut()), idleMs);
      if (on.chunk(decoder.decode(value, { stream: true }))) return { stop: true };
    }
  } catch (error) {
    if (stopped.aborted) return { stop: true };
    if (error instanceof CliError) throw error;
    // fetch wraps the socket's error: its errno (ECONNREFUSED) says most, else its message ("other side closed").
    const cause = (error as { cause?: { code?: unknown; message?: string } }).cause;
    const errno = typeof cause?.code === 'string' && /^E[A-Z]+$/.test(cause.code) ? cause.code : undefined;
    const why = idle ? `nothing heard for ${idleMs / 1000} s` : (errno ?? cause?.message ?? (error as Error).message);
    return { stop: false, reason: idle ? why : `connection lost (${why})`, ...(!opened && !idle && { unreached: why }) };
  } finally {
    clearTimeout(timer);
    stopped.removeEventListener('abort', cut);
    connection.abort();
  }
}

/** A status other than 200: worth another try when the service is busy or down, the end of the command when it refuses. */
async function refused(res: Response): Promise<Ended> {
  const body = (await res.json().catch(() => ({}))) as { detail?: unknown; code?: unknown };
  const detail = typeof body.detail === 'string' ? body.detail : res.statusText;
  const retryAfterMs = Math.max(0, Number(res.headers.get('retry-after')) * 1000 || 0);
  if (res.status >= 500 || res.status === 429 || res.status === 408)
    return { stop: false, reason: `the service answered ${res.status} ${detail}`, waitMs: retryAfterMs };
  const signIn =
    res.status === 401 && ['expired_token', 'invalid_token', 'revoked_token'].includes(String(body.code))
      ? '; sign in again: proof-registry login --keypair <wallet.json>'
      : '';
  throw new CliError(`GET /v1/events/stream: ${res.status} ${detail}${signIn}`, EXIT_INVALID);
}
