import * as E from 'fp-ts/lib/Either.js';
import type { LogProofFailure } from './log-failures.js';
import { nodeHash } from './merkle.js';
import { consistencyPlan, inclusionPlan } from './proof-plans.js';
import { equalBytes, HASH_SIZE, type Sha256 } from './sha256.js';

export interface InclusionProof {
  readonly leafIndex: number;
  readonly treeSize: number;
  /** The leaf's RFC 9162 hash, SHA-256(0x00 ‖ data). */
  readonly leafHash: Uint8Array;
  readonly hashes: readonly Uint8Array[];
}

export interface ConsistencyProof {
  readonly first: number;
  readonly second: number;
  readonly hashes: readonly Uint8Array[];
}

const ok: E.Either<LogProofFailure, void> = E.right(undefined);
const isSize = (n: number): boolean => Number.isSafeInteger(n) && n >= 0;

/** A hash that is not 32 bytes can only be an error; say which one. */
function malformed(hashes: readonly Uint8Array[], named: ReadonlyArray<readonly [string, Uint8Array]>): LogProofFailure | null {
  for (const [what, h] of named) if (h.length !== HASH_SIZE) return { _tag: 'MalformedHash', what, length: h.length };
  const bad = hashes.findIndex((h) => h.length !== HASH_SIZE);
  return bad < 0 ? null : { _tag: 'MalformedHash', what: `hashes[${bad}]`, length: hashes[bad]!.length };
}

/** Right-shifts the way RFC 9162 does, for numbers past 32 bits. */
const half = (n: number): number => Math.floor(n / 2);
const lsb = (n: number): boolean => n % 2 === 1;

/**
 * RFC 9162 §2.1.3.2: does `proof` show the leaf at `leafIndex` in the tree of `treeSize`
 * whose root is `root`? The length is checked first against the path these sizes have, so a
 * short or padded proof gets a clear answer; the walk itself is the RFC's, step for step.
 */
export function verifyInclusion(sha: Sha256, proof: InclusionProof, root: Uint8Array): E.Either<LogProofFailure, void> {
  const { leafIndex, treeSize, hashes } = proof;
  if (!isSize(leafIndex) || !isSize(treeSize) || leafIndex >= treeSize) return E.left({ _tag: 'LeafIndexBeyondTree', leafIndex, treeSize });
  const bad = malformed(hashes, [
    ['leaf hash', proof.leafHash],
    ['root hash', root],
  ]);
  if (bad) return E.left(bad);
  const expected = inclusionPlan(leafIndex, treeSize).length;
  if (hashes.length !== expected) return E.left({ _tag: 'ProofLengthWrong', expected, actual: hashes.length });

  let fn = leafIndex;
  let sn = treeSize - 1;
  let r = proof.leafHash;
  for (const p of hashes) {
    if (sn === 0) return E.left({ _tag: 'ProofLengthWrong', expected, actual: hashes.length });
    if (lsb(fn) || fn === sn) {
      r = nodeHash(sha, p, r);
      while (!lsb(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      r = nodeHash(sha, r, p);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return E.left({ _tag: 'ProofLengthWrong', expected, actual: hashes.length });
  return equalBytes(r, root) ? ok : E.left({ _tag: 'RootMismatch', which: 'root' });
}

/**
 * RFC 9162 §2.1.4.2: is the tree of `second` leaves with root `secondRoot` an extension of the
 * tree of `first` leaves with root `firstRoot`? Equal sizes need an empty proof and equal
 * roots. From the empty tree there is nothing to prove (every tree extends it), so a first
 * size of 0 is refused rather than passed: a caller asking it has a bug.
 */
export function verifyConsistency(sha: Sha256, proof: ConsistencyProof, firstRoot: Uint8Array, secondRoot: Uint8Array): E.Either<LogProofFailure, void> {
  const { first, second, hashes } = proof;
  if (!isSize(first) || !isSize(second) || first === 0 || first > second) return E.left({ _tag: 'TreeSizesInvalid', first, second });
  const bad = malformed(hashes, [
    ['first root hash', firstRoot],
    ['second root hash', secondRoot],
  ]);
  if (bad) return E.left(bad);
  const expected = consistencyPlan(first, second).length;
  if (hashes.length !== expected) return E.left({ _tag: 'ProofLengthWrong', expected, actual: hashes.length });
  if (first === second) return equalBytes(firstRoot, secondRoot) ? ok : E.left({ _tag: 'RootMismatch', which: 'second' });

  // Step 2: when the old tree is a perfect subtree, its root starts the path.
  const path = isPowerOfTwo(first) ? [firstRoot, ...hashes] : [...hashes];
  let fn = first - 1;
  let sn = second - 1;
  while (lsb(fn)) {
    fn = half(fn);
    sn = half(sn);
  }
  let fr = path[0]!;
  let sr = path[0]!;
  for (const c of path.slice(1)) {
    if (sn === 0) return E.left({ _tag: 'ProofLengthWrong', expected, actual: hashes.length });
    if (lsb(fn) || fn === sn) {
      fr = nodeHash(sha, c, fr);
      sr = nodeHash(sha, c, sr);
      while (!lsb(fn) && fn !== 0) {
        fn = half(fn);
        sn = half(sn);
      }
    } else {
      sr = nodeHash(sha, sr, c);
    }
    fn = half(fn);
    sn = half(sn);
  }
  if (sn !== 0) return E.left({ _tag: 'ProofLengthWrong', expected, actual: hashes.length });
  if (!equalBytes(fr, firstRoot)) return E.left({ _tag: 'RootMismatch', which: 'first' });
  return equalBytes(sr, secondRoot) ? ok : E.left({ _tag: 'RootMismatch', which: 'second' });
}

function isPowerOfTwo(n: number): boolean {
  let p = 1;
  while (p < n) p *= 2;
  return p === n;
}
