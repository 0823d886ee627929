import { createBLAKE3, type IHasher } from 'hash-wasm';
import type { Blake3 } from '../../domain/protocol/crypto.js';

/**
 * BLAKE3-256 through hash-wasm (the fastest BLAKE3 available to Node here). The WASM module
 * loads asynchronously once; hashing after that is synchronous, so the verification path
 * never yields mid-proof.
 */
export class HashWasmBlake3 implements Blake3 {
  private constructor(private readonly hasher: IHasher) {}

  static async create(): Promise<HashWasmBlake3> {
    return new HashWasmBlake3(await createBLAKE3(256));
  }

  hashText(text: string): string {
    return this.hasher.init().update(text).digest('hex');
  }

  hashBytes(bytes: Uint8Array): string {
    return this.hasher.init().update(bytes).digest('hex');
  }
}
