/**
 * SHA-256 as the log's domain sees it. The transparency log hashes with SHA-256 (RFC 9162
 * §2.1; docs/log.md); an adapter provides it (node:crypto in the service,
 * anything in a browser), so the domain stays pure.
 */
export interface Sha256 {
  /** The 32-byte SHA-256 digest of `data`. */
  digest(data: Uint8Array): Uint8Array;
}

/** Bytes in every hash of the tree. */
export const HASH_SIZE = 32;

export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
