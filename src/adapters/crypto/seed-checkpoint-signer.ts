import type { CheckpointSigner } from '../../application/ports/checkpoint-signer.js';
import { isKeyName } from '../../domain/log/verifier-key.js';
import type { Signer } from '../../domain/protocol/crypto.js';

/** The log's key held as a 32-byte Ed25519 seed in memory (read from the key file at start). */
export class SeedCheckpointSigner implements CheckpointSigner {
  readonly publicKey: Uint8Array;
  private readonly seed: Uint8Array;

  constructor(
    private readonly ed25519: Signer,
    seed: Uint8Array,
    readonly keyName: string,
  ) {
    if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
    // A name with a space or a plus sign would make notes and vkeys nobody can read.
    if (!isKeyName(keyName)) throw new RangeError(`${JSON.stringify(keyName)} cannot name a note key: no spaces or plus signs`);
    this.seed = seed.slice();
    this.publicKey = ed25519.publicKey(this.seed);
  }

  async sign(message: Uint8Array): Promise<Uint8Array> {
    return this.ed25519.sign(this.seed, message);
  }
}
