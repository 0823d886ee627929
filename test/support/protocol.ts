import { ProofProtocol } from '../../src/application/proofs/proof-protocol.js';
import { HashWasmBlake3 } from '../../src/adapters/crypto/hash-wasm-blake3.js';
import { NodeEd25519 } from '../../src/adapters/crypto/node-ed25519.js';
import { SodiumEd25519 } from '../../src/adapters/crypto/sodium-ed25519.js';
import { TweetnaclEd25519 } from '../../src/adapters/crypto/tweetnacl-ed25519.js';

const blake3 = await HashWasmBlake3.create();
const node = new NodeEd25519();
const nacl = new TweetnaclEd25519();
const sodium = SodiumEd25519.load();
if (sodium === null) throw new Error('sodium-native must load where the tests run');

/**
 * A BLAKE3 that hashes texts only, as a Blake3 port without the optional hashBytes: checks 4
 * and 5 then hash the canonical texts instead of the bytes made in one pass, and must judge
 * every envelope alike.
 */
const textsOnly = { hashText: (text: string): string => blake3.hashText(text) };

/** One protocol per signature adapter, so protocol tests run through each, and one that hashes texts. */
export const protocols = {
  'node:crypto': new ProofProtocol(blake3, node, node),
  tweetnacl: new ProofProtocol(blake3, nacl, nacl),
  libsodium: new ProofProtocol(blake3, sodium, sodium),
  'libsodium, hashing texts': new ProofProtocol(textsOnly, sodium, sodium),
} as const;

export const protocol = protocols['node:crypto'];
export { blake3 };

/** A deterministic device seed for tests: bytes 0..31 offset by `n`. */
export const testSeed = (n = 0): Uint8Array => Uint8Array.from({ length: 32 }, (_, i) => (i + n) & 0xff);
