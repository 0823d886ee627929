import type { PendingRow, RowOutcome } from './proof-batch-writer.js';

/** What the writer thread needs to open its own connection(s) to the registry's database. */
export interface RowWriterConfig {
  readonly databaseUrl: string;
  /** PostgreSQL schema (tests isolate with one). */
  readonly schema?: string;
  /** Connections: 1 for SQLite; for PostgreSQL, as many as transactions in flight. */
  readonly connections: number;
}

export interface WriteRequest {
  readonly id: number;
  readonly batch: readonly PendingRow[];
}

/** An error as it crossed the thread: message and driver code (e.g. SQLITE_BUSY, 57P01). */
export interface WireError {
  readonly message: string;
  readonly code?: string;
}

export type RowWriterReply =
  | { readonly type: 'ready' }
  | { readonly type: 'open-failed'; readonly error: WireError }
  | { readonly type: 'done'; readonly id: number; readonly outcomes: RowOutcome[] }
  | { readonly type: 'failed'; readonly id: number; readonly error: WireError };

export function toWireError(err: unknown): WireError {
  const message = err instanceof Error ? err.message : String(err);
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? { message, code } : { message };
}

/** An Error carrying the driver code, so the HTTP edge maps it as it would a local one. */
export function fromWireError(wire: WireError): Error {
  return Object.assign(new Error(wire.message), wire.code === undefined ? {} : { code: wire.code });
}
