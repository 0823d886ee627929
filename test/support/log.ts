import { NodeSha256 } from '../../src/adapters/crypto/node-sha256.js';
import { leafHash, nodeHash } from '../../src/domain/log/merkle.js';
import { bytesToHex, hexToBytes } from '../../src/domain/protocol/encoding.js';

export const sha = new NodeSha256();

export const hex = (bytes: Uint8Array): string => bytesToHex(bytes);
export function unhex(text: string): Uint8Array {
  const bytes = hexToBytes(text);
  if (bytes === null) throw new Error(`not hex: ${text}`);
  return bytes;
}

/** Leaf data for tests: 32 distinct bytes per index, like a payload_hash. */
export function leafData(i: number): Uint8Array {
  return sha.digest(new TextEncoder().encode(`leaf ${i}`));
}

/**
 * RFC 9162 §2.1 written out recursively over leaf hashes in memory, the way the RFC states
 * it: the reference the tiled tree and the proof plans are checked against.
 */
export class ReferenceTree {
  readonly leaves: Uint8Array[];

  constructor(data: readonly Uint8Array[]) {
    this.leaves = data.map((d) => leafHash(sha, d));
  }

  static ofSize(n: number): ReferenceTree {
    return new ReferenceTree(Array.from({ length: n }, (_, i) => leafData(i)));
  }

  private readonly memo = new Map<string, Uint8Array>();

  /** MTH(D[lo:hi]); every subtree is remembered, as tests ask for the same ones often. */
  mth(lo = 0, hi = this.leaves.length): Uint8Array {
    if (hi - lo === 0) return sha.digest(new Uint8Array(0));
    if (hi - lo === 1) return this.leaves[lo]!;
    const key = `${lo}:${hi}`;
    const known = this.memo.get(key);
    if (known) return known;
    const k = split(hi - lo);
    const hash = nodeHash(sha, this.mth(lo, lo + k), this.mth(lo + k, hi));
    this.memo.set(key, hash);
    return hash;
  }

  /** PATH(m, D[lo:hi]). */
  path(m: number, lo = 0, hi = this.leaves.length): Uint8Array[] {
    if (hi - lo <= 1) return [];
    const k = split(hi - lo);
    return m < k ? [...this.path(m, lo, lo + k), this.mth(lo + k, hi)] : [...this.path(m - k, lo + k, hi), this.mth(lo, lo + k)];
  }

  /** PROOF(m, D[0:n]). */
  consistency(m: number, n: number): Uint8Array[] {
    return m === 0 ? [] : this.subproof(m, 0, n, true);
  }

  private subproof(m: number, lo: number, hi: number, whole: boolean): Uint8Array[] {
    if (m === hi - lo) return whole ? [] : [this.mth(lo, hi)];
    const k = split(hi - lo);
    return m <= k ? [...this.subproof(m, lo, lo + k, whole), this.mth(lo + k, hi)] : [...this.subproof(m - k, lo + k, hi, false), this.mth(lo, lo + k)];
  }
}

function split(n: number): number {
  let k = 1;
  while (k * 2 < n) k *= 2;
  return k;
}
