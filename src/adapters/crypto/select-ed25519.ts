import type { Signer, SignatureVerifier } from '../../domain/protocol/crypto.js';
import { NodeEd25519 } from './node-ed25519.js';
import { SodiumEd25519 } from './sodium-ed25519.js';
import { TweetnaclEd25519 } from './tweetnacl-ed25519.js';

/**
 * `sodium`: libsodium, the fastest (default where sodium-native loads); `node`: node:crypto
 * (OpenSSL); `tweetnacl`: pure JavaScript, slow, runs anywhere. All three accept exactly the
 * same signatures (tests hold them to the Wycheproof suite and to each other).
 */
export type Ed25519Choice = 'sodium' | 'node' | 'tweetnacl';

export function selectEd25519(choice?: Ed25519Choice): SignatureVerifier & Signer {
  if (choice === 'tweetnacl') return new TweetnaclEd25519();
  if (choice === 'node') return new NodeEd25519();
  const sodium = SodiumEd25519.load();
  if (sodium) return sodium;
  if (choice === 'sodium') throw new Error('sodium-native could not be loaded on this platform; choose ed25519 "node"');
  return new NodeEd25519();
}
