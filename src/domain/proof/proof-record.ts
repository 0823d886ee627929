import { characterCount, hasCharacters } from '../text/characters.js';
import type { JsonValue, ProofEnvelope } from '../protocol/envelope.js';
import type { VerifiedProof } from '../protocol/verify-envelope.js';

/** A verified proof as the registry keeps it, owned by one wallet. */
export interface ProofRecord {
  readonly proofId: string;
  readonly wallet: string;
  readonly taskId: string;
  readonly robotId: string | null;
  readonly runId: string | null;
  readonly signerPublicKeyB64: string;
  /** `payload.created_at` exactly as signed. */
  readonly createdAt: string;
  /** The same instant in epoch milliseconds: the order of lists and the base of filters. */
  readonly createdAtMs: number;
  readonly receivedAtMs: number;
  /** Distinct event topics, sorted. */
  readonly topics: readonly string[];
  readonly eventCount: number;
  /** Lower-cased task/robot/run ids and meta values, one per line, for `text` search. */
  readonly searchText: string;
  readonly envelope: ProofEnvelope;
  /**
   * A JSON text that parses to exactly `envelope`, when one is already known (see
   * VerifiedProof): the submitter's own text, or `JSON.stringify(envelope)`; never anything else.
   */
  readonly envelopeJson?: string;
  /**
   * The proof's leaf index in the transparency log: one per distinct proofId, whichever
   * wallet stored it first. Absent where the store keeps no log.
   */
  readonly logIndex?: number;
  /** The proof's score under the default policy as it was received, when it was scored. */
  readonly score?: number | null;
}

export type ProofSummary = Omit<ProofRecord, 'envelope' | 'envelopeJson' | 'searchText'>;

/** Builds the record for a proof that passed verification. Pure: time comes in as `receivedAtMs`. */
export function toProofRecord(verified: VerifiedProof, wallet: string, receivedAtMs: number): ProofRecord {
  const payload = verified.envelope.payload;
  const subject = payload.subject;
  const robotId = typeof subject.robot_id === 'string' ? subject.robot_id : null;
  const runId = typeof subject.run_id === 'string' ? subject.run_id : null;
  const events = payload.telemetry_normalized.events;
  const topics = [...new Set(events.map((e) => e.topic))].sort();
  const words = [subject.task_id, robotId, runId, ...metaStrings(payload.meta)].filter((w): w is string => !!w);
  return {
    proofId: verified.proofId,
    wallet,
    taskId: subject.task_id,
    robotId,
    runId,
    signerPublicKeyB64: verified.envelope.signer_public_key_b64,
    createdAt: payload.created_at,
    createdAtMs: verified.createdAtMs,
    receivedAtMs,
    topics,
    eventCount: events.length,
    // U+0000 cannot be stored (PostgreSQL); in the search text it separates words like a line break.
    searchText: words.join('\n').replaceAll(NUL, '\n').toLowerCase(),
    envelope: verified.envelope,
    ...(verified.envelopeJson !== undefined ? { envelopeJson: verified.envelopeJson } : {}),
  };
}

/**
 * Longest task_id, robot_id, run_id or topic the registry stores, in characters (code points,
 * what a filter accepts too). Each is a key of an index; PostgreSQL refuses an index entry
 * over about 2,700 bytes, so without a limit a long id would be stored on SQLite and refused
 * on PostgreSQL. 256 characters are at most 1,024 bytes of UTF-8.
 */
export const MAX_INDEXED_LENGTH = 256;

/**
 * A verified proof the registry does not store: one of its indexed values is too long, or
 * holds U+0000, which a PostgreSQL text value cannot hold (the same proof would be stored on
 * SQLite and refused on PostgreSQL, so every store refuses it).
 */
export type UnstorableProof =
  | { readonly _tag: 'UnstorableProof'; readonly problem: 'too_long'; readonly path: string; readonly length: number; readonly max: number }
  | { readonly _tag: 'UnstorableProof'; readonly problem: 'nul'; readonly path: string };

/** Why the registry cannot store this record, or null when it can. */
export function unstorableProof(record: ProofRecord): UnstorableProof | null {
  const ids: Array<[string, string | null]> = [
    ['payload.subject.task_id', record.taskId],
    ['payload.subject.robot_id', record.robotId],
    ['payload.subject.run_id', record.runId],
  ];
  for (const [path, value] of ids) {
    const problem = value === null ? null : unstorableValue(value, () => path);
    if (problem) return problem;
  }
  // Every submission passes here: an event's path is written only for the one refused.
  const events = record.envelope.payload.telemetry_normalized.events;
  for (let i = 0; i < events.length; i++) {
    const problem = unstorableValue(events[i]!.topic, () => `payload.telemetry_normalized.events[${i}].topic`);
    if (problem) return problem;
  }
  return null;
}

function unstorableValue(value: string, path: () => string): UnstorableProof | null {
  if (!hasCharacters(value, 0, MAX_INDEXED_LENGTH))
    return { _tag: 'UnstorableProof', problem: 'too_long', path: path(), length: characterCount(value), max: MAX_INDEXED_LENGTH };
  if (value.includes(NUL)) return { _tag: 'UnstorableProof', problem: 'nul', path: path() };
  return null;
}

const NUL = '\u0000';

export function describeUnstorable(problem: UnstorableProof): string {
  return problem.problem === 'nul'
    ? `${problem.path} contains U+0000 (NUL), which the registry does not store`
    : `${problem.path} is ${problem.length} characters long; the registry stores and filters by values of at most ${problem.max}`;
}

/** Scalar values anywhere in `meta`, as text (bounded, so a huge meta cannot bloat the index). */
function metaStrings(meta: unknown, out: string[] = [], budget = { left: 200 }): string[] {
  if (meta === null || meta === undefined || budget.left <= 0) return out;
  if (typeof meta === 'object') {
    for (const v of Object.values(meta as Record<string, JsonValue>)) metaStrings(v, out, budget);
  } else {
    budget.left--;
    out.push(String(meta));
  }
  return out;
}

export function toSummary(record: ProofRecord): ProofSummary {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  const { envelope, envelopeJson, searchText, ...summary } = record;
  return summary;
}
