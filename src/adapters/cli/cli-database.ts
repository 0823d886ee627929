import { isAbsolute, resolve } from 'node:path';
import type { Database } from '../sql/database.js';
import { CliError, type CliIo } from './command.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A relative `sqlite:` path is relative to the directory the command runs in. */
export function databaseUrl(url: string, cwd: string): string {
  const m = /^sqlite:(?!\/\/)(.+)$/i.exec(url);
  if (!m || m[1] === ':memory:' || isAbsolute(m[1]!)) return url;
  return `sqlite:${resolve(cwd, m[1]!)}`;
}

/** A database failure as the command's one-line error, naming the setting it came from. */
export function databaseError(err: unknown): CliError {
  return new CliError(`DATABASE_URL: ${err instanceof Error ? err.message : String(err)}`);
}

/**
 * Opens the service's database (DATABASE_URL, as the service reads it) for a command. The
 * drivers are loaded here, not at start-up, so the other commands never load them; the
 * driver's own warnings are left to the command's one-line error.
 */
export async function openCommandDatabase(env: Env, io: CliIo): Promise<Database> {
  const { openDatabase } = await import('../sql/index.js');
  const url = databaseUrl(env['DATABASE_URL'] || 'sqlite:./data/registry.sqlite', io.cwd);
  return openDatabase(url, { onDriverWarning: () => undefined }).catch((err: unknown) => {
    throw databaseError(err);
  });
}
