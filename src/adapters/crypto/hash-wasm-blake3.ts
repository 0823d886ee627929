import { createBLAKE3, createSHA256, type IHasher } from 'hash-wasm';
import type { Blake3, Hasher } from '../../domain/protocol/crypto.js';

/** One hash-wasm hasher, reset for each digest. */
class HashWasmHasher implements Hasher {
  constructor(private readonly hasher: IHasher) {}

  hashText(text: string): string {
    return this.hasher.init().update(text).digest('hex');
  }

  hashBytes(bytes: Uint8Array): string {
    return this.hasher.init().update(bytes).digest('hex');
  }
}

/**
 * BLAKE3-256 through hash-wasm (the fastest BLAKE3 available to Node here), with SHA-256 from
 * the same library for envelopes whose hash_alg is "sha256". The WASM modules load
 * asynchronously once; hashing after that is synchronous, so the verification path never
 * yields mid-proof.
 */
export class HashWasmBlake3 extends HashWasmHasher implements Blake3 {
  private constructor(
    blake3: IHasher,
    readonly sha256: Hasher,
  ) {
    super(blake3);
  }

  static async create(): Promise<HashWasmBlake3> {
    const [blake3, sha256] = await Promise.all([createBLAKE3(256), createSHA256()]);
    return new HashWasmBlake3(blake3, new HashWasmHasher(sha256));
  }
}
