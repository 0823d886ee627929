import type { SqliteSynchronous } from './database.js';
import type { PendingRow, RowOutcome } from './proof-writer.js';

/** What the writer thread needs to open its own connection(s) to the registry's database. */
export interface ProofWriterThreadConfig {
  readonly databaseUrl: string;
  /** PostgreSQL schema (tests isolate with one). */
  readonly schema?: string;
  /** Connections: 1 for SQLite; for PostgreSQL, as many as transactions in flight. */
  readonly connections: number;
  /** Sequence proofs into the transparency log (see WriterOptions); default true. */
  readonly sequence?: boolean;
  /** SQLite: when a commit is on disk (see SqliteSynchronous); default full. */
  readonly synchronous?: SqliteSynchronous;
}

export interface WriteRequest {
  readonly id: number;
  readonly batch: readonly PendingRow[];
}

/** An error as it crossed the thread: message, driver code (e.g. SQLITE_BUSY, 57P01), PostgreSQL's severity and the error's name. */
export interface WireError {
  readonly message: string;
  readonly code?: string;
  readonly severity?: string;
  readonly name?: string;
}

export type ProofWriterReply =
  | { readonly type: 'ready' }
  | { readonly type: 'open-failed'; readonly error: WireError }
  | { readonly type: 'done'; readonly id: number; readonly outcomes: RowOutcome[] }
  | { readonly type: 'failed'; readonly id: number; readonly error: WireError }
  /** A warning of the thread's database driver (one line), for the main thread's log. */
  | { readonly type: 'warning'; readonly message: string };

export function toWireError(err: unknown): WireError {
  const message = err instanceof Error ? err.message : String(err);
  const { code, severity, name } = (err ?? {}) as { code?: unknown; severity?: unknown; name?: unknown };
  return {
    message,
    ...(typeof code === 'string' && { code }),
    ...(typeof severity === 'string' && { severity }),
    ...(typeof name === 'string' && name !== 'Error' && { name }),
  };
}

/** An Error carrying what the HTTP edge looks at (code, severity, name), so it maps it as it would a local one. */
export function fromWireError(wire: WireError): Error {
  const error = new Error(wire.message);
  if (wire.name !== undefined) error.name = wire.name;
  return Object.assign(error, wire.code === undefined ? {} : { code: wire.code }, wire.severity === undefined ? {} : { severity: wire.severity });
}
