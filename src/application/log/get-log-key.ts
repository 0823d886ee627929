import { formatVerifierKey, verifierKeyOf } from '../../domain/log/verifier-key.js';
import type { Sha256 } from '../../domain/log/sha256.js';
import { encodeBase64 } from '../../domain/protocol/encoding.js';
import type { CheckpointSigner } from '../ports/checkpoint-signer.js';

export interface LogKey {
  readonly origin: string;
  readonly keyName: string;
  readonly publicKeyB64: string;
  /** The C2SP verifier key: what a client needs to open checkpoints. */
  readonly vkey: string;
}

/** The log's identity and public key, as clients configure them to verify checkpoints. */
export class GetLogKey {
  constructor(
    private readonly signer: CheckpointSigner,
    private readonly sha: Sha256,
    private readonly origin: string,
  ) {}

  execute(): LogKey {
    const key = verifierKeyOf(this.sha, this.signer.keyName, this.signer.publicKey);
    return { origin: this.origin, keyName: key.name, publicKeyB64: encodeBase64(key.publicKey), vkey: formatVerifierKey(key) };
  }
}
