import type { ProofRecord, ProofSummary } from '../../domain/proof/proof-record.js';

/**
 * What a list is ordered by. Each is a total order within a wallet, the proof id breaking ties:
 * - `created_at`: (createdAtMs, proofId), the default;
 * - `task_id`: (taskId, createdAtMs, proofId);
 * - `robot_id`: (robotId, createdAtMs, proofId), proofs without a robot id before every other
 *   in ascending order (after them in descending);
 * - `payload_hash`: (proofId), the proof id being the payload hash.
 * Ids compare by their UTF-8 bytes.
 */
export type ProofSortField = 'created_at' | 'task_id' | 'robot_id' | 'payload_hash';
export const PROOF_SORT_FIELDS: readonly ProofSortField[] = ['created_at', 'task_id', 'robot_id', 'payload_hash'];

/**
 * Deepest offset: a store reads and drops the rows it skips, so an offset costs as much as the
 * pages before it. Deeper pages are reached with the cursor, which costs the same at any depth.
 */
export const MAX_OFFSET = 10_000;
/** An offset search counts its matches up to here; beyond, its total says "at least this many". */
export const TOTAL_CAP = 10_000;
/** Most proofs one export request answers (ExportProofs); the next request continues from its cursor. */
export const EXPORT_CAP = 100_000;
/** Longest cursor text (SearchProofs' cursors): a 256-character id of 4-byte characters, twice in base64. */
export const MAX_CURSOR_LENGTH = 2_048;

/** Position in a list's total order (see ProofSortField). */
export interface ProofCursor {
  readonly createdAtMs: number;
  readonly proofId: string;
  /** The task id (sort `task_id`) or robot id (sort `robot_id`) at this position; absent for the other sorts. */
  readonly key?: string | null;
}

/** Filters combine with AND; all are scoped to one wallet by the store call. */
export interface ProofQuery {
  readonly taskId?: string;
  readonly robotId?: string;
  readonly runId?: string;
  readonly signerPublicKeyB64?: string;
  /** Inclusive lower bound on createdAtMs. */
  readonly createdAfterMs?: number;
  /** Exclusive upper bound on createdAtMs. */
  readonly createdBeforeMs?: number;
  /** Proofs with at least one event of this topic. */
  readonly topic?: string;
  /** Case-insensitive substring of task/robot/run ids or meta values. */
  readonly text?: string;
  readonly order: 'asc' | 'desc';
  /** Default `created_at`. */
  readonly sort?: ProofSortField;
  readonly limit: number;
  /** Continue strictly after this position (in `order`). */
  readonly after?: ProofCursor;
  /** Skip this many matches first. Never given with `after` (a store may refuse the pair). */
  readonly offset?: number;
}

export interface ProofPage {
  readonly items: readonly ProofSummary[];
  /** Where the next page starts, or null when this page is the last. */
  readonly next: ProofCursor | null;
}

export interface AddResult {
  /** False when the wallet already had this proof id; the stored copy is then returned untouched. */
  readonly stored: boolean;
  readonly record: ProofRecord;
}

/**
 * Where verified proofs live. Every read is scoped to a wallet: a proof another wallet owns
 * does not exist for the caller.
 */
export interface ProofStore {
  /** Atomic insert-or-ignore on (wallet, proofId): the first stored copy is never changed. */
  add(record: ProofRecord): Promise<AddResult>;
  /**
   * `withText`: the record also holds the envelope's text as stored (`envelopeJson`), which is
   * the text its submitter sent: numbers keep their spelling (`56.0`, `-0.0`), which the ACTO form hashes.
   */
  get(wallet: string, proofId: string, options?: { readonly withText?: boolean }): Promise<ProofRecord | null>;
  search(wallet: string, query: ProofQuery): Promise<ProofPage>;
  /** How many proofs match the query's filters (its order, position and page are ignored), counting no further than `upTo`. */
  count(wallet: string, query: ProofQuery, upTo: number): Promise<number>;
}
