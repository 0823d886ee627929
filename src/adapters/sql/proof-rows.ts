import type { ProofEnvelope } from '../../domain/protocol/envelope.js';
import type { ProofRecord, ProofSummary } from '../../domain/proof/proof-record.js';

/** A `proofs` row as the drivers return it. pg returns bigint as a string; sqlite3 as a number. */
export interface ProofRow {
  readonly id: number | string;
  /** The wallet's key (migrations/004_wallet_keys.ts), which the indexes lead with. */
  readonly wallet_id: number | string;
  readonly wallet: string;
  readonly proof_id: string;
  readonly task_id: string;
  readonly robot_id: string | null;
  readonly run_id: string | null;
  readonly signer_public_key_b64: string;
  readonly created_at: string;
  readonly created_at_ms: number | string;
  readonly received_at_ms: number | string;
  readonly event_count: number | string;
  readonly topics: string;
  readonly search_text: string;
  readonly envelope: string;
  /** migrations/007: the score under the default policy as the proof was received. */
  readonly score: number | null;
}

export type SummaryRow = Omit<ProofRow, 'id' | 'wallet_id' | 'search_text' | 'envelope' | 'score'>;
/** A row as the writers get it; each writer adds the wallet's key (see wallet-keys.ts). */
export type NewProofRow = Omit<ProofRow, 'id' | 'wallet_id'>;

/** Columns a summary needs; the envelope is the bulk of a row, so lists never read it. */
export const SUMMARY_COLUMNS = [
  'wallet',
  'proof_id',
  'task_id',
  'robot_id',
  'run_id',
  'signer_public_key_b64',
  'created_at',
  'created_at_ms',
  'received_at_ms',
  'event_count',
  'topics',
] as const satisfies ReadonlyArray<keyof SummaryRow>;

/** Every column of a new row, for statements written without Knex (the SQLite writer thread). */
export const NEW_ROW_COLUMNS = [...SUMMARY_COLUMNS, 'search_text', 'envelope', 'score'] as const satisfies ReadonlyArray<keyof NewProofRow>;
// Fails to compile if NewProofRow gains a column that NEW_ROW_COLUMNS does not list.
const everyColumnListed: Exclude<keyof NewProofRow, (typeof NEW_ROW_COLUMNS)[number]> extends never ? true : never = true;
void everyColumnListed;

export function toRow(record: ProofRecord): NewProofRow {
  return {
    wallet: record.wallet,
    proof_id: record.proofId,
    task_id: record.taskId,
    robot_id: record.robotId,
    run_id: record.runId,
    signer_public_key_b64: record.signerPublicKeyB64,
    created_at: record.createdAt,
    created_at_ms: record.createdAtMs,
    received_at_ms: record.receivedAtMs,
    event_count: record.eventCount,
    topics: JSON.stringify(record.topics),
    search_text: record.searchText,
    // Serialized once, here, and never re-serialized: what is stored is what is served.
    envelope: record.envelopeJson ?? JSON.stringify(record.envelope),
    score: record.score ?? null,
  };
}

export function toSummary(row: SummaryRow): ProofSummary {
  return {
    proofId: row.proof_id,
    wallet: row.wallet,
    taskId: row.task_id,
    robotId: row.robot_id,
    runId: row.run_id,
    signerPublicKeyB64: row.signer_public_key_b64,
    createdAt: row.created_at,
    createdAtMs: toSafeNumber(row.created_at_ms, 'created_at_ms'),
    receivedAtMs: toSafeNumber(row.received_at_ms, 'received_at_ms'),
    topics: parseTopics(row.topics),
    eventCount: toSafeNumber(row.event_count, 'event_count'),
  };
}

export function toRecord(row: NewProofRow): ProofRecord {
  return { ...toSummary(row), searchText: row.search_text, envelope: parseEnvelope(row.envelope) };
}

function toSafeNumber(value: number | string, column: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`proofs.${column} holds ${String(value)}, not a safe integer`);
  return n;
}

function parseTopics(text: string): string[] {
  const parsed: unknown = JSON.parse(text);
  if (!Array.isArray(parsed) || !parsed.every((t): t is string => typeof t === 'string')) {
    throw new Error('proofs.topics is not a JSON array of strings');
  }
  return parsed;
}

function parseEnvelope(text: string): ProofEnvelope {
  const parsed: unknown = JSON.parse(text);
  // Only envelopes that passed verification are stored; this guards against a corrupted row,
  // not against an attacker, so a shape check is enough.
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed) || !('payload' in parsed)) {
    throw new Error('proofs.envelope is not a JSON object with a payload');
  }
  return parsed as ProofEnvelope;
}
