import path from 'node:path';

/** Where a DATABASE_URL points, once parsed. */
export type DatabaseTarget = { readonly dialect: 'sqlite'; readonly filename: string } | { readonly dialect: 'postgres'; readonly connectionString: string };

export const SQLITE_MEMORY = ':memory:';

/**
 * Parses the DATABASE_URL forms of docs/storage.md: `sqlite:<path>` (relative to the working
 * directory), `sqlite://<path>` (so `sqlite:///abs/path` is absolute), `sqlite::memory:`,
 * and `postgres://…` / `postgresql://…` (handed to pg as is, so `?sslmode=` etc. work).
 * Anything else is a configuration error, reported without echoing credentials.
 */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  const trimmed = url.trim();
  if (/^postgres(ql)?:\/\//i.test(trimmed)) return { dialect: 'postgres', connectionString: trimmed };
  if (/^sqlite:/i.test(trimmed)) {
    const rest = trimmed.slice('sqlite:'.length);
    if (rest === SQLITE_MEMORY) return { dialect: 'sqlite', filename: SQLITE_MEMORY };
    const file = rest.startsWith('//') ? rest.slice(2) : rest;
    if (file === '') throw new Error('DATABASE_URL "sqlite:" needs a file path, e.g. sqlite:./data/registry.sqlite');
    return { dialect: 'sqlite', filename: path.resolve(file) };
  }
  const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(trimmed)?.[1];
  throw new Error(`DATABASE_URL must start with sqlite: or postgres:// (got ${scheme ? `"${scheme}:"` : 'no scheme'})`);
}
