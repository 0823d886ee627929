import { createRequire } from 'node:module';
import type * as Sodium from 'sodium-native';
import type { Signer, SignatureVerifier } from '../../domain/protocol/crypto.js';
import { passesStrictEncoding } from '../../domain/protocol/ed25519-rules.js';
import { NodeEd25519 } from './node-ed25519.js';

type SodiumApi = typeof Sodium;

/**
 * Ed25519 through libsodium (sodium-native, prebuilt for the usual platforms): about twice as
 * fast as node:crypto's OpenSSL at verifying, and it needs no key import, so there is no
 * KeyObject cache to warm.
 *
 * libsodium is stricter than RFC 8032: besides S ≥ L and non-canonical encodings it rejects
 * small-order public keys and R points. This adapter must accept exactly what the others
 * accept, so a signature libsodium rejects is asked again of node:crypto, and only a rejection
 * by both is final. Valid proofs, the common case, pay for libsodium alone; an invalid one
 * costs both checks.
 */
export class SodiumEd25519 implements SignatureVerifier, Signer {
  private readonly secretKeys = new Map<string, { publicKey: Uint8Array; secretKey: Uint8Array }>();

  private constructor(
    private readonly sodium: SodiumApi,
    private readonly confirm: SignatureVerifier,
  ) {}

  /** The libsodium adapter, or null where sodium-native has no build for this platform. */
  static load(confirm: SignatureVerifier = new NodeEd25519()): SodiumEd25519 | null {
    try {
      const sodium = createRequire(import.meta.url)('sodium-native') as SodiumApi;
      return new SodiumEd25519(sodium, confirm);
    } catch {
      return null;
    }
  }

  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    if (!passesStrictEncoding(publicKey, signature)) return false;
    try {
      if (this.sodium.crypto_sign_verify_detached(signature, message, publicKey)) return true;
    } catch {
      // fall through to the second opinion
    }
    return this.confirm.verify(publicKey, message, signature);
  }

  publicKey(seed: Uint8Array): Uint8Array {
    return Uint8Array.from(this.pair(seed).publicKey);
  }

  sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
    const signature = new Uint8Array(this.sodium.crypto_sign_BYTES);
    this.sodium.crypto_sign_detached(signature, message, this.pair(seed).secretKey);
    return signature;
  }

  /** Deriving a key pair costs a scalar multiplication, as much as signing: keep a few. */
  private pair(seed: Uint8Array): { publicKey: Uint8Array; secretKey: Uint8Array } {
    if (seed.length !== 32) throw new RangeError('an Ed25519 seed is 32 bytes');
    const id = Buffer.from(seed).toString('base64');
    let pair = this.secretKeys.get(id);
    if (!pair) {
      pair = { publicKey: new Uint8Array(this.sodium.crypto_sign_PUBLICKEYBYTES), secretKey: new Uint8Array(this.sodium.crypto_sign_SECRETKEYBYTES) };
      this.sodium.crypto_sign_seed_keypair(pair.publicKey, pair.secretKey, seed);
      if (this.secretKeys.size >= 64) this.secretKeys.delete(this.secretKeys.keys().next().value as string);
      this.secretKeys.set(id, pair);
    }
    return pair;
  }
}
