import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_TOLERANCE_S, isWebhookSecret, verifySignature } from '../webhooks/standard-webhook-signer.js';
import { CliError, describeFsError, EXIT_INVALID, EXIT_OK, parseCommandArgs, readSource, requireOption, type CliIo, type Command } from './command.js';

type Env = Readonly<Record<string, string | undefined>>;

const USAGE = `Usage: proof-registry webhook verify --secret <whsec_…> (--id <id> --timestamp <ts> --signature <sig> | --headers <file>)
                              [--tolerance <seconds>] [--now <epoch seconds>] [<body file>|-]

Checks a webhook the registry sent (Standard Webhooks v1): that its webhook-signature holds a
v1 signature of its id, timestamp and body made with the secret, and that its timestamp is
within the tolerance of now. The body is read byte for byte, as received: a body that was
re-formatted, even to equal JSON, does not verify. Without a body file, stdin is read.
Exit code: 0 valid, 1 invalid (the reason is printed), 2 usage or input error.

Options:
  --secret <whsec_…>       the endpoint's signing secret (default: PROOF_REGISTRY_WEBHOOK_SECRET,
                           which keeps it out of the process list and the shell's history)
  --id <id>                the webhook-id header
  --timestamp <ts>         the webhook-timestamp header (seconds since the epoch)
  --signature <sig>        the webhook-signature header (one or more "v1,…", space-separated)
  --headers <file>         read the three headers from a header dump instead ("Name: value"
                           lines, as 'curl -D' saves them or a request log shows them)
  --tolerance <seconds>    how far the timestamp may be from now (default ${DEFAULT_TOLERANCE_S})
  --now <epoch seconds>    the time to check against, instead of this machine's clock
  -h, --help               show this help
`;

const OPTIONS = {
  secret: { type: 'string' },
  id: { type: 'string' },
  timestamp: { type: 'string' },
  signature: { type: 'string' },
  headers: { type: 'string' },
  tolerance: { type: 'string' },
  now: { type: 'string' },
} as const;

/** Seconds a Date can hold (±8.64e15 ms): a --now beyond it is no time at all. */
const MAX_EPOCH_S = 8_640_000_000_000;

export function createWebhookCommand(env: Env): Command {
  return {
    summary: "verify a webhook's Standard Webhooks signature (exit 0 valid, 1 invalid)",
    usage: USAGE,
    async run(args: readonly string[], io: CliIo): Promise<number> {
      const { values, positionals, help } = parseCommandArgs(args, OPTIONS, { min: 1, max: 2, name: 'webhook command (verify)' });
      if (help) {
        io.stdout.write(USAGE);
        return EXIT_OK;
      }
      const [action, bodyPath = '-'] = positionals;
      if (action !== 'verify') throw new CliError(`unknown webhook command ${JSON.stringify(action)}: verify`);
      const secret = values.secret || env['PROOF_REGISTRY_WEBHOOK_SECRET'];
      if (!secret) throw new CliError('--secret is required (or set PROOF_REGISTRY_WEBHOOK_SECRET)');
      if (!isWebhookSecret(secret)) throw new CliError('the secret is malformed: expected whsec_ and the base64 of 24 to 64 bytes');
      const toleranceS = wholeSeconds(values.tolerance, 'tolerance') ?? DEFAULT_TOLERANCE_S;
      const nowS = wholeSeconds(values.now, 'now') ?? Math.floor(Date.now() / 1000);
      const signed = values.headers === undefined ? fromOptions(values) : await fromHeaderFile(values, io);
      const body = await readBytes(bodyPath, io);
      const check = verifySignature({ secret, ...signed, body, nowS, toleranceS });
      if (!check.ok) {
        io.stdout.write(`invalid: ${check.reason}\n`);
        return EXIT_INVALID;
      }
      io.stdout.write(`valid: webhook ${signed.id} signed ${signedAt(Number(signed.timestamp))}\n`);
      return EXIT_OK;
    },
  };
}

export const webhookCommand: Command = createWebhookCommand(process.env);

interface SignedHeaders {
  readonly id: string;
  readonly timestamp: string;
  readonly signature: string;
}

function fromOptions(values: { id?: string; timestamp?: string; signature?: string }): SignedHeaders {
  if (values.id === undefined && values.timestamp === undefined && values.signature === undefined) {
    throw new CliError('give --id, --timestamp and --signature, or --headers <file> (see --help)');
  }
  return {
    id: requireOption(values.id, 'id'),
    timestamp: requireOption(values.timestamp, 'timestamp'),
    signature: requireOption(values.signature, 'signature'),
  };
}

async function fromHeaderFile(values: { headers?: string; id?: string; timestamp?: string; signature?: string }, io: CliIo): Promise<SignedHeaders> {
  if (values.id !== undefined || values.timestamp !== undefined || values.signature !== undefined) {
    throw new CliError('--headers takes the place of --id, --timestamp and --signature: give one or the other');
  }
  const source = await readSource(values.headers!, io);
  const headers = parseHeaderDump(source.text);
  const take = (name: string): string => {
    const found = headers.get(name);
    if (found === undefined) throw new CliError(`${source.name}: no ${name} header`);
    if (found.length > 1) throw new CliError(`${source.name}: ${found.length} ${name} headers; which one was signed is not clear`);
    return found[0]!;
  };
  return { id: take('webhook-id'), timestamp: take('webhook-timestamp'), signature: take('webhook-signature') };
}

/**
 * The header lines of a request or response head, by lower-case name: a request or status
 * line is skipped, and the head ends at its first blank line (a copied request may go on
 * with its body).
 */
export function parseHeaderDump(text: string): Map<string, string[]> {
  const headers = new Map<string, string[]>();
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') {
      if (headers.size > 0) break;
      continue;
    }
    const header = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
    if (header === null) continue;
    const name = header[1]!.toLowerCase();
    headers.set(name, [...(headers.get(name) ?? []), header[2]!]);
  }
  return headers;
}

function signedAt(timestampS: number): string {
  const date = new Date(timestampS * 1000);
  return Number.isNaN(date.getTime()) ? `${timestampS} s after the epoch` : date.toISOString();
}

function wholeSeconds(value: string | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^[0-9]{1,13}$/.test(value) || Number(value) > MAX_EPOCH_S)
    throw new CliError(`--${name} must be a whole number of seconds (got ${JSON.stringify(value)})`);
  return Number(value);
}

/** The body exactly as received: as bytes, since the signature covers bytes and a decode would mend what it should refuse. */
async function readBytes(path: string, io: CliIo): Promise<Buffer> {
  if (path === '-') {
    const chunks: Buffer[] = [];
    for await (const chunk of io.stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
    return Buffer.concat(chunks);
  }
  try {
    return await readFile(resolve(io.cwd, path));
  } catch (error) {
    throw new CliError(`${path}: ${describeFsError(error)}`);
  }
}
