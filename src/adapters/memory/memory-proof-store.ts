import type { ProofRecord } from '../../domain/proof/proof-record.js';
import { toSummary } from '../../domain/proof/proof-record.js';
import type { AddResult, ProofCursor, ProofPage, ProofQuery, ProofSortField, ProofStore } from '../../application/ports/proof-store.js';
import { hexToBytes } from '../../domain/protocol/encoding.js';
import { proofAccepted } from '../../domain/events/announcements.js';
import type { MemoryEventLog } from './memory-event-log.js';
import { MemorySequencedLeaves } from './memory-sequenced-leaves.js';

/** Told of each proof as it is stored, in the same synchronous step (the memory "transaction"). */
export interface StoredProofListener {
  proofStored(record: ProofRecord): void;
}

/** In-memory ProofStore for tests and embedding; behaves as the SQL store (same contract suite). */
export class MemoryProofStore implements ProofStore {
  private readonly byWallet = new Map<string, Map<string, ProofRecord>>();

  /** Each proof's envelope text as submitted, when it was given, by wallet and proof id. */
  private readonly texts = new Map<string, string>();

  /**
   * `listener`: e.g. a MemoryFleet, which counts devices' proofs as the SQL proof writers do.
   * `leaves`: the transparency log's sequence, which each new proof_id joins as it is stored.
   * `events`: where each newly stored proof is announced (`proof.accepted`).
   */
  constructor(
    private readonly listener?: StoredProofListener,
    readonly leaves: MemorySequencedLeaves = new MemorySequencedLeaves(),
    private readonly events?: MemoryEventLog,
  ) {}

  async add(record: ProofRecord): Promise<AddResult> {
    let proofs = this.byWallet.get(record.wallet);
    if (!proofs) this.byWallet.set(record.wallet, (proofs = new Map()));
    const existing = proofs.get(record.proofId);
    if (existing) return { stored: false, record: existing };
    const { envelopeJson, ...kept } = record;
    const leaf = hexToBytes(record.proofId);
    if (leaf === null) throw new Error(`proof id ${record.proofId} is not hex: it cannot be a leaf of the log`);
    // In the same synchronous step as the store: no await between them, as in one transaction.
    const copy = structuredClone({ ...kept, logIndex: this.leaves.append(leaf) });
    proofs.set(record.proofId, copy);
    if (envelopeJson !== undefined) this.texts.set(`${record.wallet}\u0000${record.proofId}`, envelopeJson);
    this.listener?.proofStored(copy);
    this.events?.appendNow([proofAccepted(copy, copy.logIndex)]);
    return { stored: true, record: structuredClone(copy) };
  }

  async get(wallet: string, proofId: string, options?: { readonly withText?: boolean }): Promise<ProofRecord | null> {
    const found = this.byWallet.get(wallet)?.get(proofId);
    if (!found) return null;
    const text = options?.withText ? this.texts.get(`${wallet}\u0000${proofId}`) : undefined;
    return text === undefined ? structuredClone(found) : { ...structuredClone(found), envelopeJson: text };
  }

  async search(wallet: string, q: ProofQuery): Promise<ProofPage> {
    if (q.after !== undefined && q.offset !== undefined) throw new Error('a search takes a position or an offset, not both');
    const sort = q.sort ?? 'created_at';
    const sign = q.order === 'asc' ? 1 : -1;
    const after = q.after ? positionOf(q.after, sort) : undefined;
    const matches = this.matching(wallet, q)
      .filter((r) => after === undefined || sign * compare(r, after, sort) > 0)
      .sort((a, b) => sign * compare(a, b, sort));
    const skipped = matches.slice(q.offset ?? 0);
    const page = skipped.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => toSummary(structuredClone(r))),
      next: skipped.length > q.limit && last ? cursorAt(last, sort) : null,
    };
  }

  async count(wallet: string, q: ProofQuery, upTo: number): Promise<number> {
    return Math.min(this.matching(wallet, q).length, upTo);
  }

  private matching(wallet: string, q: ProofQuery): ProofRecord[] {
    const text = q.text?.toLowerCase();
    return [...(this.byWallet.get(wallet)?.values() ?? [])].filter(
      (r) =>
        (q.taskId === undefined || r.taskId === q.taskId) &&
        (q.robotId === undefined || r.robotId === q.robotId) &&
        (q.runId === undefined || r.runId === q.runId) &&
        (q.signerPublicKeyB64 === undefined || r.signerPublicKeyB64 === q.signerPublicKeyB64) &&
        (q.createdAfterMs === undefined || r.createdAtMs >= q.createdAfterMs) &&
        (q.createdBeforeMs === undefined || r.createdAtMs < q.createdBeforeMs) &&
        (q.topic === undefined || r.topics.includes(q.topic)) &&
        (text === undefined || r.searchText.includes(text)),
    );
  }
}

/** What the sort orders compare: a record, or a cursor's position. */
interface Position {
  readonly createdAtMs: number;
  readonly proofId: string;
  readonly taskId: string;
  readonly robotId: string | null;
}

function positionOf(c: ProofCursor, sort: ProofSortField): Position {
  const key = c.key ?? null;
  return { createdAtMs: c.createdAtMs, proofId: c.proofId, taskId: sort === 'task_id' ? (key ?? '') : '', robotId: sort === 'robot_id' ? key : null };
}

function cursorAt(r: Position, sort: ProofSortField): ProofCursor {
  const base = { createdAtMs: r.createdAtMs, proofId: r.proofId };
  if (sort === 'task_id') return { ...base, key: r.taskId };
  if (sort === 'robot_id') return { ...base, key: r.robotId };
  return base;
}

/** The order of ProofSortField: ids by UTF-8 bytes, a missing robot id first. */
function compare(a: Position, b: Position, sort: ProofSortField): number {
  if (sort === 'payload_hash') return bytes(a.proofId, b.proofId);
  if (sort === 'task_id') {
    const c = bytes(a.taskId, b.taskId);
    if (c !== 0) return c;
  }
  if (sort === 'robot_id' && a.robotId !== b.robotId) {
    if (a.robotId === null) return -1;
    if (b.robotId === null) return 1;
    const c = bytes(a.robotId, b.robotId);
    if (c !== 0) return c;
  }
  if (a.createdAtMs !== b.createdAtMs) return a.createdAtMs < b.createdAtMs ? -1 : 1;
  return bytes(a.proofId, b.proofId);
}

function bytes(a: string, b: string): number {
  return a === b ? 0 : Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}
