import type { Sha256 } from './sha256.js';

/**
 * RFC 9162 §2.1.1 hashing. The one-byte prefixes keep a leaf from ever hashing like an
 * interior node, so nobody can pass off two child hashes as a leaf (a second preimage).
 */
export function leafHash(sha: Sha256, data: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + data.length);
  input[0] = 0x00;
  input.set(data, 1);
  return sha.digest(input);
}

export function nodeHash(sha: Sha256, left: Uint8Array, right: Uint8Array): Uint8Array {
  const input = new Uint8Array(1 + left.length + right.length);
  input[0] = 0x01;
  input.set(left, 1);
  input.set(right, 1 + left.length);
  return sha.digest(input);
}

/** MTH({}): the hash of the empty string. */
export function emptyRoot(sha: Sha256): Uint8Array {
  return sha.digest(new Uint8Array(0));
}

/** The largest power of two smaller than `n` (n ≥ 2): RFC 9162's split point `k`. */
export function splitPoint(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}

/**
 * The root of subtrees laid side by side, left to right, as RFC 9162 combines them: the right
 * edge of a tree is a run of perfect subtrees of decreasing size, and MTH folds them from the
 * right. One hash gives itself.
 */
export function foldFromRight(sha: Sha256, hashes: readonly Uint8Array[]): Uint8Array {
  if (hashes.length === 0) throw new RangeError('nothing to fold');
  let acc = hashes[hashes.length - 1]!;
  for (let i = hashes.length - 2; i >= 0; i--) acc = nodeHash(sha, hashes[i]!, acc);
  return acc;
}

/**
 * MTH(D[n]) straight from RFC 9162 §2.1.1, over leaf hashes held in memory. The reference
 * the tiled tree is checked against; the service never holds a whole log like this.
 */
export function rootOfLeafHashes(sha: Sha256, leaves: readonly Uint8Array[]): Uint8Array {
  if (leaves.length === 0) return emptyRoot(sha);
  if (leaves.length === 1) return leaves[0]!;
  const k = splitPoint(leaves.length);
  return nodeHash(sha, rootOfLeafHashes(sha, leaves.slice(0, k)), rootOfLeafHashes(sha, leaves.slice(k)));
}
