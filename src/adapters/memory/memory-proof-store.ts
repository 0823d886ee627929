import type { ProofRecord } from '../../domain/proof/proof-record.js';
import { toSummary } from '../../domain/proof/proof-record.js';
import type { AddResult, ProofCursor, ProofPage, ProofQuery, ProofStore } from '../../application/ports/proof-store.js';
import { hexToBytes } from '../../domain/protocol/encoding.js';
import { MemorySequencedLeaves } from './memory-sequenced-leaves.js';

/** Told of each proof as it is stored, in the same synchronous step (the memory "transaction"). */
export interface StoredProofListener {
  proofStored(record: ProofRecord): void;
}

/** In-memory ProofStore for tests and embedding; behaves as the SQL store (same contract suite). */
export class MemoryProofStore implements ProofStore {
  private readonly byWallet = new Map<string, Map<string, ProofRecord>>();

  /**
   * `listener`: e.g. a MemoryFleet, which counts devices' proofs as the SQL proof writers do.
   * `leaves`: the transparency log's sequence, which each new proof_id joins as it is stored.
   */
  constructor(
    private readonly listener?: StoredProofListener,
    readonly leaves: MemorySequencedLeaves = new MemorySequencedLeaves(),
  ) {}

  async add(record: ProofRecord): Promise<AddResult> {
    let proofs = this.byWallet.get(record.wallet);
    if (!proofs) this.byWallet.set(record.wallet, (proofs = new Map()));
    const existing = proofs.get(record.proofId);
    if (existing) return { stored: false, record: existing };
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
    const { envelopeJson, ...kept } = record;
    const leaf = hexToBytes(record.proofId);
    if (leaf === null) throw new Error(`proof id ${record.proofId} is not hex: it cannot be a leaf of the log`);
    // In the same synchronous step as the store: no await between them, as in one transaction.
    const copy = structuredClone({ ...kept, logIndex: this.leaves.append(leaf) });
    proofs.set(record.proofId, copy);
    this.listener?.proofStored(copy);
    return { stored: true, record: structuredClone(copy) };
  }

  async get(wallet: string, proofId: string): Promise<ProofRecord | null> {
    const found = this.byWallet.get(wallet)?.get(proofId);
    return found ? structuredClone(found) : null;
  }

  async search(wallet: string, q: ProofQuery): Promise<ProofPage> {
    const text = q.text?.toLowerCase();
    const sign = q.order === 'asc' ? 1 : -1;
    const matches = [...(this.byWallet.get(wallet)?.values() ?? [])]
      .filter(
        (r) =>
          (q.taskId === undefined || r.taskId === q.taskId) &&
          (q.robotId === undefined || r.robotId === q.robotId) &&
          (q.runId === undefined || r.runId === q.runId) &&
          (q.signerPublicKeyB64 === undefined || r.signerPublicKeyB64 === q.signerPublicKeyB64) &&
          (q.createdAfterMs === undefined || r.createdAtMs >= q.createdAfterMs) &&
          (q.createdBeforeMs === undefined || r.createdAtMs < q.createdBeforeMs) &&
          (q.topic === undefined || r.topics.includes(q.topic)) &&
          (text === undefined || r.searchText.includes(text)) &&
          (q.after === undefined || sign * compare(r, q.after) > 0),
      )
      .sort((a, b) => sign * compare(a, b));
    const page = matches.slice(0, q.limit);
    const last = page[page.length - 1];
    return {
      items: page.map((r) => toSummary(structuredClone(r))),
      next: matches.length > q.limit && last ? { createdAtMs: last.createdAtMs, proofId: last.proofId } : null,
    };
  }
}

function compare(a: ProofCursor, b: ProofCursor): number {
  if (a.createdAtMs !== b.createdAtMs) return a.createdAtMs < b.createdAtMs ? -1 : 1;
  return a.proofId < b.proofId ? -1 : a.proofId > b.proofId ? 1 : 0;
}
