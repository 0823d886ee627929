import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Where a command reads and writes; tests pass their own to run the CLI in-process. */
export interface CliIo {
  readonly stdout: { write(text: string): unknown };
  readonly stderr: { write(text: string): unknown };
  readonly stdin: AsyncIterable<string | Uint8Array>;
  /** Relative paths in arguments resolve against this directory. */
  readonly cwd: string;
}

/** One subcommand: `summary` shows in `proof-registry help`, `usage` in `<command> --help`. */
export interface Command {
  readonly summary: string;
  readonly usage: string;
  run(args: readonly string[], io: CliIo): Promise<number>;
}

export const EXIT_OK = 0;
export const EXIT_INVALID = 1;
export const EXIT_USAGE = 2;

/** A usage or input problem: reported on stderr as one line, exit code 2. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_USAGE,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

const HELP = { help: { type: 'boolean', short: 'h' } } as const;

type Parsed<O extends Options> = ReturnType<typeof parseArgs<{ args: string[]; options: O & typeof HELP; allowPositionals: true; strict: true }>>;

/**
 * node:util parseArgs with `--help` added to every command, its errors turned into usage
 * errors, and the positional count checked, so commands only see well-formed arguments.
 */
export function parseCommandArgs<O extends Options>(
  args: readonly string[],
  options: O,
  positionals: { min: number; max: number; name?: string },
): Parsed<O> & { help: boolean } {
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs({ args: [...args], options: { ...options, ...HELP }, allowPositionals: true, strict: true });
  } catch (error) {
    const code = (error as { code?: unknown }).code;
    const option = /'(-[^']*)'/.exec(error instanceof Error ? error.message : '')?.[1];
    // parseArgs's own text suggests `-- "--x"` with a stray quote; say it plainly.
    if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) throw new CliError(`unknown option ${option} (see --help)`);
    throw new CliError(error instanceof Error ? error.message : String(error));
  }
  const help = (parsed.values as { help?: boolean }).help === true;
  const count = parsed.positionals.length;
  if (!help && count < positionals.min) throw new CliError(`missing ${positionals.name ?? 'argument'} (see --help)`);
  if (!help && count > positionals.max) {
    throw new CliError(`unexpected argument ${JSON.stringify(parsed.positionals[positionals.max])} (see --help)`);
  }
  return { ...parsed, help };
}

export function requireOption(value: string | undefined, name: string): string {
  if (value === undefined || value === '') throw new CliError(`--${name} is required (see --help)`);
  return value;
}

/** A file named on the command line, or stdin for `-`; `name` is what messages call it. */
export interface Source {
  readonly name: string;
  readonly path: string | null;
  readonly text: string;
}

export async function readSource(path: string, io: CliIo): Promise<Source> {
  if (path === '-') return { name: 'stdin', path: null, text: await readAll(io.stdin) };
  try {
    return { name: path, path, text: await readFile(resolve(io.cwd, path), 'utf8') };
  } catch (error) {
    throw new CliError(`${path}: ${describeFsError(error)}`);
  }
}

async function readAll(stream: AsyncIterable<string | Uint8Array>): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk));
  return Buffer.concat(chunks).toString('utf8');
}

export function describeFsError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EISDIR') return 'is a directory, not a file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EEXIST') return 'already exists';
  return error instanceof Error ? error.message : String(error);
}

/** JSON.parse with the parser's complaint kept for the message. */
export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(`${what}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
}

export const isPlainObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
