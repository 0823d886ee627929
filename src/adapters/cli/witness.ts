import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import * as E from 'fp-ts/lib/Either.js';
import type { Clock } from '../../application/ports/clock.js';
import type { WitnessState } from '../../application/ports/witness-state.js';
import { cosignerKeyOf, formatCosignerVerifierKey } from '../../domain/log/cosignature.js';
import { describeNoteFailure } from '../../domain/log/log-failures.js';
import { isKeyName, parseVerifierKey, type VerifierKey } from '../../domain/log/verifier-key.js';
import type { WitnessFailure } from '../../domain/log/witness-checks.js';
import { NodeEd25519 } from '../crypto/node-ed25519.js';
import { NodeSha256 } from '../crypto/node-sha256.js';
import { SeedCheckpointSigner } from '../crypto/seed-checkpoint-signer.js';
import { CliError, EXIT_OK, parseCommandArgs, requireOption, type CliIo, type Command } from './command.js';
import { readKeyFile } from './key-file.js';
import { WitnessService } from './witness-service.js';

const USAGE = `Usage: proof-registry witness serve --key <key.json> --log <vkey>[,<vkey>…] --db <file> --listen <host:port> [--name <name>]

Runs a witness (c2sp.org/tlog-witness): logs POST /add-checkpoint with a checkpoint and a
consistency proof from the last size this witness cosigned; it checks the log's signature and
the proof, records the new size, and answers with its cosignature (cosignature/v1, Ed25519).
Monitors GET /<sha256 of the origin, hex>/checkpoint: the latest checkpoint it cosigned.
It prints "witness <name> <vkey>": the line a log's witness policy needs.

Options:
  --key <file>       the witness's Ed25519 key, as 'proof-registry keygen' writes it
  --log <vkey>       a log's verifier key (its name is the log's origin); repeat the flag or
                     separate vkeys with commas for several logs, or several keys of one log
  --db <file>        SQLite file keeping the latest size and root cosigned per log
                     (created if missing)
  --listen <h:p>     address to serve on, e.g. 127.0.0.1:7380 or [::1]:7380 (port 0: any)
  --name <name>      the witness's key name (default: this host's name)
  -h, --help         show this help
`;

const OPTIONS = {
  key: { type: 'string' },
  log: { type: 'string', multiple: true },
  db: { type: 'string' },
  listen: { type: 'string' },
  name: { type: 'string' },
} as const;

/** A request body larger than this is refused (413): 63 proof lines and a checkpoint with many signatures fit well within it. */
export const MAX_BODY_BYTES = 256 * 1024;

/** The HTTP status of each refusal (c2sp.org/tlog-witness, add-checkpoint). */
export function witnessStatus(failure: WitnessFailure): number {
  switch (failure._tag) {
    case 'MalformedRequest':
    case 'OldSizeBeyondCheckpoint':
      return 400;
    case 'LogSignatureInvalid':
      return 403;
    case 'UnknownLog':
      return 404;
    case 'SizeConflict':
      return 409;
    case 'Inconsistent':
      return 422;
  }
}

function describeFailure(failure: WitnessFailure): string {
  switch (failure._tag) {
    case 'MalformedRequest':
      return `malformed request: ${failure.problem}`;
    case 'OldSizeBeyondCheckpoint':
      return `the old size ${failure.oldSize} is larger than the checkpoint's size ${failure.checkpointSize}`;
    case 'LogSignatureInvalid':
      return `log ${failure.origin}: ${failure.problem}`;
    case 'UnknownLog':
      return `this witness does not witness the log ${JSON.stringify(failure.origin)}`;
    case 'SizeConflict':
      return `${failure.size}`;
    case 'Inconsistent':
      return `not consistent with the checkpoint this witness cosigned: ${failure.problem}`;
  }
}

export interface WitnessOptions {
  readonly seed: Uint8Array;
  readonly name: string;
  readonly logKeys: readonly VerifierKey[];
  readonly state: WitnessState;
  readonly clock?: Clock;
  readonly host: string;
  readonly port: number;
}

export interface RunningWitness {
  /** `http://host:port`, the submission prefix. */
  readonly url: string;
  /** The witness's cosigner vkey (type 0x04). */
  readonly vkey: string;
  close(): Promise<void>;
}

const systemClock: Clock = { nowMs: () => Date.now() };

/** Serves add-checkpoint for the logs whose keys are given, cosigning with the seed under `name`. */
export async function startWitness(options: WitnessOptions): Promise<RunningWitness> {
  const sha = new NodeSha256();
  const ed25519 = new NodeEd25519();
  const signer = new SeedCheckpointSigner(ed25519, options.seed, options.name);
  const witness = new WitnessService(sha, ed25519, signer, options.state, options.clock ?? systemClock, options.logKeys);
  const server = createServer((req, res) => {
    handle(witness, req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, 500, 'text/plain; charset=utf-8', `internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      else res.destroy();
    });
  });
  server.keepAliveTimeout = 30_000;
  await listen(server, options.host, options.port);
  const address = server.address();
  const port = typeof address === 'object' && address !== null ? address.port : options.port;
  const host = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${host}:${port}`,
    vkey: formatCosignerVerifierKey(cosignerKeyOf(sha, options.name, signer.publicKey)),
    close: () =>
      new Promise<void>((done) => {
        server.close(() => done());
        server.closeIdleConnections();
      }),
  };
}

function listen(server: Server, host: string, port: number): Promise<void> {
  return new Promise((done, fail) => {
    server.once('error', fail);
    server.listen(port, host, () => {
      server.off('error', fail);
      done();
    });
  });
}

function send(res: ServerResponse, status: number, contentType: string, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}

const TEXT = 'text/plain; charset=utf-8';
const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

async function handle(witness: WitnessService, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = (req.url ?? '/').split('?')[0]!;
  const monitored = /^\/([0-9a-f]{64})\/checkpoint$/.exec(path);
  if (monitored) {
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, TEXT, 'a checkpoint is read with GET\n', { allow: 'GET, HEAD' });
    const note = await witness.latestCheckpoint(monitored[1]!);
    if (note === null) return send(res, 404, TEXT, 'this witness has cosigned no checkpoint of a log with that origin hash\n');
    return send(res, 200, TEXT, note);
  }
  if (path !== '/add-checkpoint') return send(res, 404, TEXT, 'not found: this witness serves POST /add-checkpoint and GET /<origin hash>/checkpoint\n');
  if (req.method !== 'POST') return send(res, 405, TEXT, 'add-checkpoint takes POST\n', { allow: 'POST' });
  const chunks: Buffer[] = [];
  let length = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    length += chunk.length;
    if (length > MAX_BODY_BYTES) {
      res.setHeader('connection', 'close');
      return send(res, 413, TEXT, `the body is larger than ${MAX_BODY_BYTES} bytes\n`);
    }
    chunks.push(chunk);
  }
  let body: string;
  try {
    body = decoder.decode(Buffer.concat(chunks));
  } catch {
    return send(res, 400, TEXT, 'malformed request: the body is not UTF-8\n');
  }
  const outcome = await witness.addCheckpoint(body);
  if (E.isRight(outcome)) return send(res, 200, TEXT, outcome.right.lines);
  const failure = outcome.left;
  // tlog-witness: a 409 carries the witness's size for the log, in decimal, as text/x.tlog.size.
  if (failure._tag === 'SizeConflict') return send(res, 409, 'text/x.tlog.size', `${failure.size}\n`);
  return send(res, witnessStatus(failure), TEXT, `${describeFailure(failure)}\n`);
}

/** `host:port`, `[v6]:port`; the port 0 to 65535. */
export function parseListen(text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[3]) : NaN;
  if (!m || port > 65535) throw new CliError(`--listen must be <host>:<port>, e.g. 127.0.0.1:7380 or [::1]:7380, got ${JSON.stringify(text)}`);
  return { host: (m[1] ?? m[2])!, port };
}

/** Every --log flag, split at commas, each a log's Ed25519 vkey. */
export function parseLogKeys(values: readonly string[]): VerifierKey[] {
  const sha = new NodeSha256();
  const vkeys = values.flatMap((v) => v.split(',')).map((v) => v.trim());
  if (vkeys.length === 0 || vkeys.some((v) => v === '')) throw new CliError('--log needs at least one vkey (and no empty one in a list)');
  return vkeys.map((vkey) => {
    const key = parseVerifierKey(sha, vkey);
    if (E.isLeft(key)) throw new CliError(`--log ${vkey}: ${describeNoteFailure(key.left)}`);
    return key.right;
  });
}

function defaultName(): string {
  const host = hostname();
  return isKeyName(host) ? host : 'proof-registry-witness';
}

export const witnessCommand: Command = {
  summary: 'run a C2SP tlog-witness that cosigns the checkpoints of logs (serve)',
  usage: USAGE,
  async run(args: readonly string[], io: CliIo): Promise<number> {
    const { values, positionals, help } = parseCommandArgs(args, OPTIONS, { min: 1, max: 1, name: 'witness command (serve)' });
    if (help) {
      io.stdout.write(USAGE);
      return EXIT_OK;
    }
    if (positionals[0] !== 'serve') throw new CliError(`unknown witness command ${JSON.stringify(positionals[0])}: serve`);
    const keyPath = requireOption(values.key, 'key');
    const logKeys = parseLogKeys(values.log ?? []);
    const dbPath = requireOption(values.db, 'db');
    const { host, port } = parseListen(requireOption(values.listen, 'listen'));
    const name = values.name ?? defaultName();
    if (!isKeyName(name)) throw new CliError(`--name ${JSON.stringify(name)} cannot name a key: no spaces or plus signs`);
    const { seed } = await readKeyFile(keyPath, io.cwd, new NodeEd25519());

    // The SQL adapter (and its drivers) only load for this command.
    const { openDatabase } = await import('../sql/database.js');
    const { KnexWitnessState } = await import('../sql/knex-witness-state.js');
    const db = await openDatabase(`sqlite:${resolve(io.cwd, dbPath)}`, { onDriverWarning: () => undefined }).catch((err: unknown) => {
      throw new CliError(`--db ${dbPath}: ${err instanceof Error ? err.message : String(err)}`);
    });
    try {
      const state = new KnexWitnessState(db);
      await state.prepare();
      const running = await startWitness({ seed, name, logKeys, state, host, port }).catch((err: unknown) => {
        throw new CliError(`--listen ${values.listen}: ${err instanceof Error ? err.message : String(err)}`);
      });
      io.stdout.write(`witness ${name} ${running.vkey}\n`);
      for (const key of logKeys) io.stdout.write(`log ${key.name}+${key.keyId}\n`);
      io.stdout.write(`listening on ${running.url}/add-checkpoint\n`);
      await new Promise<void>((done) => {
        process.once('SIGINT', done);
        process.once('SIGTERM', done);
      });
      await running.close();
    } finally {
      await db.close();
    }
    return EXIT_OK;
  },
};
