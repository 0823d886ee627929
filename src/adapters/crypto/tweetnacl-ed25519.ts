import nacl from 'tweetnacl';
import type { Signer, SignatureVerifier } from '../../domain/protocol/crypto.js';
import { passesStrictEncoding } from '../../domain/protocol/ed25519-rules.js';

/**
 * Ed25519 through tweetnacl: pure JavaScript, so it runs in browsers and on runtimes without
 * OpenSSL. About 50× slower than node:crypto. tweetnacl alone accepts S ≥ L; the strict
 * encoding rules run first so both adapters accept the same signatures.
 */
export class TweetnaclEd25519 implements SignatureVerifier, Signer {
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    if (!passesStrictEncoding(publicKey, signature)) return false;
    try {
      return nacl.sign.detached.verify(message, signature, publicKey);
    } catch {
      return false;
    }
  }

  publicKey(seed: Uint8Array): Uint8Array {
    return nacl.sign.keyPair.fromSeed(seed).publicKey;
  }

  sign(seed: Uint8Array, message: Uint8Array): Uint8Array {
    return nacl.sign.detached(message, nacl.sign.keyPair.fromSeed(seed).secretKey);
  }
}
