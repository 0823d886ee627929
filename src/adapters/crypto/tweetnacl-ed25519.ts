import nacl from 'tweetnacl';
import type { Signer, SignatureVerifier } from '../../domain/protocol/crypto.js';
import { passesStrictEncoding } from '../../domain/protocol/ed25519-rules.js';

/**
 * Ed25519 through tweetnacl: pure JavaScript, so it runs in browsers and on runtimes without
 * OpenSSL. About 50× slower than node:crypto. tweetnacl alone accepts S ≥ L; the strict
 * encoding rules run first so both adapters accept the same signatures.
 */
export class TweetnaclEd25519 implements SignatureVerifier, Signer {
  // Deriving a key pair is a scalar multiplication, as costly as signing: keep a few.
  private readonly pairs = new Map<string, nacl.SignKeyPair>();

  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    if (!passesStrictEncoding(publicKey, signature)) return false;
    try {
      return nacl.sign.detached.verify(message, signature, publicKey);
    } catch {
      return false;
    }
  }

  publicKey(seed: Uint8Array): Uint8Array {
    return this.pair(seed).publicKey;
  }

  sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
    return nacl.sign.detached(message, this.pair(seed).secretKey);
  }

  private pair(seed: Uint8Array): nacl.SignKeyPair {
    const id = Array.from(seed, (b) => b.toString(16).padStart(2, '0')).join('');
    let pair = this.pairs.get(id);
    if (!pair) {
      pair = nacl.sign.keyPair.fromSeed(seed);
      if (this.pairs.size >= 64) this.pairs.delete(this.pairs.keys().next().value as string);
      this.pairs.set(id, pair);
    }
    return pair;
  }
}
