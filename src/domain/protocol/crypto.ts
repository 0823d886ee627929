/**
 * The two primitives the protocol needs, as the domain sees them. Adapters provide them
 * (hash-wasm for BLAKE3; node:crypto or tweetnacl for Ed25519); the domain stays pure.
 */
export interface Hasher {
  /** Lowercase hex of the 256-bit digest of the UTF-8 bytes of `text`. */
  hashText(text: string): string;
  /** Lowercase hex of the 256-bit digest of `bytes`. Optional: where it is missing, texts are hashed. */
  hashBytes?(bytes: Uint8Array): string;
}

/** BLAKE3-256, the protocol's hash. */
export interface Blake3 extends Hasher {
  /**
   * SHA-256, for envelopes whose `hash_alg` is "sha256" (ACTO allows it). Optional: without
   * it such envelopes fail check 2, as any other algorithm does.
   */
  readonly sha256?: Hasher;
}

export interface SignatureVerifier {
  /** RFC 8032 verification, strict: non-canonical S or point encodings are rejected. */
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean;
}

export interface Signer {
  /** The 32-byte public key for a 32-byte seed. */
  publicKey(seed: Uint8Array): Uint8Array;
  /** 64-byte Ed25519 signature of `message` with the key derived from `seed`. */
  sign(seed: Uint8Array, message: Uint8Array): Uint8Array;
}

// ignoreBOM: a text starting with U+FEFF keeps it, so the text hashed is exactly the bytes.
const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

/** The digest of canonical bytes: as bytes where the hasher takes them, else as the text they encode (the same digest). */
export function digestOf(hasher: Hasher, bytes: Uint8Array): string {
  return hasher.hashBytes ? hasher.hashBytes(bytes) : hasher.hashText(decoder.decode(bytes));
}
