import type { ProofRecord, ProofSummary } from '../../domain/proof/proof-record.js';

/** Position in the total order (createdAtMs, proofId) that every list uses. */
export interface ProofCursor {
  readonly createdAtMs: number;
  readonly proofId: string;
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
  readonly limit: number;
  /** Continue strictly after this position (in `order`). */
  readonly after?: ProofCursor;
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
}
