import { createHash, randomBytes } from 'node:crypto';
import type { RandomSource, SecretHasher } from '../../application/ports/identity-crypto.js';

/** The OS CSPRNG and SHA-256 through node:crypto. */
export class NodeIdentityCrypto implements RandomSource, SecretHasher {
  bytes(length: number): Uint8Array {
    return new Uint8Array(randomBytes(length));
  }

  sha256(data: Uint8Array): Uint8Array {
    return new Uint8Array(createHash('sha256').update(data).digest());
  }
}
