import { eventId, type EventBody, type ProofLoggedRecord, type StoredEvent } from '../../domain/events/event.js';
import { leafHash } from '../../domain/log/merkle.js';
import type { Sha256 } from '../../domain/log/sha256.js';
import { bytesToHex, hexToBytes } from '../../domain/protocol/encoding.js';
import { toRfc3339 } from '../../domain/protocol/datetime.js';
import type { CheckpointStore } from '../ports/checkpoint-store.js';
import type { LogTree } from '../log/log-tree.js';

/** What `proof.logged` adds to its stored record: the audit path and the checkpoint it ends at. */
export interface InclusionOfLogged {
  readonly leaf_hash: string;
  readonly hashes: string[];
  readonly checkpoint: string;
}

/** Proves a logged proof's inclusion against the checkpoint its event names. */
export interface LoggedProofs {
  inclusion(record: ProofLoggedRecord): Promise<InclusionOfLogged | null>;
}

/** LoggedProofs from the log's tiles and its kept checkpoints: the same proof `GET /v1/log/inclusion/{id}?tree_size=` gives. */
export class TreeLoggedProofs implements LoggedProofs {
  constructor(
    private readonly tree: LogTree,
    private readonly checkpoints: CheckpointStore,
    private readonly sha: Sha256,
  ) {}

  async inclusion(record: ProofLoggedRecord): Promise<InclusionOfLogged | null> {
    const [checkpoint, leaf] = [await this.checkpoints.atSize(record.tree_size), hexToBytes(record.proof_id)];
    if (!checkpoint || !leaf || record.log_index >= record.tree_size) return null;
    const hashes = await this.tree.inclusion(record.log_index, record.tree_size);
    return { leaf_hash: bytesToHex(leafHash(this.sha, leaf)), hashes: hashes.map(bytesToHex), checkpoint: checkpoint.note };
  }
}

/**
 * A stored event as every receiver gets it. Stored data is sent as it is, but for
 * `proof.logged`, which stores what it is about and is sent with its inclusion proof, made
 * when it is sent (always the same for the same event: a checkpoint's tree never changes).
 */
export class EventRenderer {
  constructor(private readonly logged: LoggedProofs) {}

  async render(event: StoredEvent): Promise<EventBody> {
    const data = event.type === 'proof.logged' ? await this.withInclusion(event.data as ProofLoggedRecord) : event.data;
    return { id: eventId(event.id), type: event.type, timestamp: toRfc3339(event.atMs), wallet: event.wallet, data };
  }

  private async withInclusion(record: ProofLoggedRecord): Promise<object> {
    const inclusion = await this.logged.inclusion(record);
    // The checkpoint is kept as long as the log: this is a damaged store, not a client's error.
    if (!inclusion) throw new Error(`proof.logged of ${record.proof_id}: no checkpoint of size ${record.tree_size} to prove it against`);
    return { ...record, ...inclusion };
  }
}
