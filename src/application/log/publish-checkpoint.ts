import * as E from 'fp-ts/lib/Either.js';
import { formatCheckpoint } from '../../domain/log/checkpoint.js';
import type { Sha256 } from '../../domain/log/sha256.js';
import { formatSignedNote } from '../../domain/log/signed-note.js';
import { noteKeyId } from '../../domain/log/verifier-key.js';
import { verifyConsistency } from '../../domain/log/verify-proofs.js';
import { utf8 } from '../../domain/protocol/encoding.js';
import type { CheckpointSigner } from '../ports/checkpoint-signer.js';
import type { CheckpointStore, PublishedCheckpoint } from '../ports/checkpoint-store.js';
import type { Clock } from '../ports/clock.js';
import type { LogTileStore } from '../ports/log-tile-store.js';
import type { LogMaintenanceFailure } from './log-failures.js';
import type { LogTree } from './log-tree.js';

export interface PublishResult {
  /** The latest checkpoint after this step: the new one, or the one already published. */
  readonly checkpoint: PublishedCheckpoint;
  readonly published: boolean;
}

/**
 * Signs and publishes a checkpoint of the integrated tree when it has grown. Costs O(log n):
 * the root comes from the partial tiles of the right edge. Before signing, the new tree is
 * proved consistent with the latest published checkpoint from the stored tiles: C2SP forbids
 * a log to sign a checkpoint inconsistent with one it signed before, and this is what keeps
 * a damaged or rolled-back store from ever forking the log. Sizes never shrink and a size,
 * once published, is never signed again, so its root cannot change.
 */
export class PublishCheckpoint {
  constructor(
    private readonly tiles: LogTileStore,
    private readonly tree: LogTree,
    private readonly checkpoints: CheckpointStore,
    private readonly signer: CheckpointSigner,
    private readonly sha: Sha256,
    private readonly clock: Clock,
    private readonly origin: string,
  ) {}

  async execute(): Promise<E.Either<LogMaintenanceFailure, PublishResult>> {
    const [size, latest] = await Promise.all([this.tiles.integratedSize(), this.checkpoints.latest()]);
    if (latest && size < latest.size) return E.left({ _tag: 'TreeBehindCheckpoint', treeSize: size, checkpointSize: latest.size });
    if (latest && size === latest.size) return E.right({ checkpoint: latest, published: false });
    const rootHash = await this.tree.root(size);
    if (latest && latest.size > 0) {
      const hashes = await this.tree.consistency(latest.size, size);
      const consistent = verifyConsistency(this.sha, { first: latest.size, second: size, hashes }, latest.rootHash, rootHash);
      if (E.isLeft(consistent)) return E.left({ _tag: 'InconsistentWithPublished', checkpointSize: latest.size, treeSize: size });
    }
    const text = formatCheckpoint({ origin: this.origin, size, rootHash, extensions: [] });
    const signature = await this.signer.sign(utf8(text));
    const keyId = noteKeyId(this.sha, this.signer.keyName, this.signer.publicKey);
    const note = formatSignedNote({ text, signatures: [{ name: this.signer.keyName, keyId, signature }] });
    const checkpoint: PublishedCheckpoint = { size, rootHash, note, publishedAtMs: this.clock.nowMs() };
    if (await this.checkpoints.publish(checkpoint)) return E.right({ checkpoint, published: true });
    // Another publisher got there first with a larger tree: theirs is the latest.
    return E.right({ checkpoint: (await this.checkpoints.latest()) ?? checkpoint, published: false });
  }
}
