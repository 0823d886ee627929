/**
 * Failures of the database or of the connection to it, as the HTTP edge classifies them
 * (errors-to-json.ts): which mean a dependency is down (503, retry later) rather than a bug,
 * and which count in database_errors_total. Driver codes live here, with the SQL adapters.
 */
/**
 * Failures of a dependency that is down or unreachable (database, cache) are 503, not a bug:
 * no connection (refused, reset, timed out, host unknown), no pool slot in time, and the
 * PostgreSQL classes for connection loss (08), exhausted resources (53), an operator's
 * shutdown (57P01–57P03), a database that is gone (3D000) and refused logins (28).
 */
export function isUnavailable(err: unknown): boolean {
  const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code !== 'string') return false;
  if (UNAVAILABLE_CODES.has(code)) return true;
  return isPostgresError(err) && (code.startsWith('08') || code.startsWith('53') || code.startsWith('28') || code === '3D000' || /^57P0[123]$/.test(code));
}

const UNAVAILABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'SQLITE_BUSY',
  'SQLITE_CANTOPEN',
]);

/** An error the database or its driver raised (counted in database_errors_total). */
export function isDatabaseError(err: unknown): boolean {
  const { code, name } = (err ?? {}) as { code?: unknown; name?: unknown };
  if (name === 'KnexTimeoutError') return true;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) return true;
  return isPostgresError(err) || (typeof code === 'string' && UNAVAILABLE_CODES.has(code));
}

/** node-postgres's DatabaseError: a five-character SQLSTATE and a severity. */
function isPostgresError(err: unknown): boolean {
  const { code, severity } = (err ?? {}) as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

/** The classification the HTTP edge takes (FailureClassifier). */
export const databaseFailures = { unavailable: isUnavailable, fromDatabase: isDatabaseError } as const;
