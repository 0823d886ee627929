import { foldFromRight, splitPoint } from './merkle.js';
import type { Sha256 } from './sha256.js';

/**
 * Which stored hashes a proof or a root needs (RFC 9162 §2.1.3.1 and §2.1.4.1), without
 * reading any. The log stores only perfect subtrees, `(level, index)` covering leaves
 * [index·2^level, (index+1)·2^level); every RFC 9162 subtree is one of those, or, on the
 * right edge of the tree, a run of them. A plan lists, for each hash of the proof in order,
 * the perfect subtrees to fold from the right. Its size is O(log n): at most one proof hash
 * lies on the right edge and needs several.
 */
export interface NodeId {
  readonly level: number;
  readonly index: number;
}

/** For each hash of a proof, in proof order: the perfect subtrees whose fold it is. */
export type ProofPlan = ReadonlyArray<readonly NodeId[]>;

/**
 * The perfect subtrees making up the RFC 9162 subtree over leaves [start, end), largest
 * first. Plain arithmetic, not bit operators, which stop at 32 bits.
 */
export function subtreeNodes(start: number, end: number): NodeId[] {
  const nodes: NodeId[] = [];
  let at = start;
  while (at < end) {
    let size = 1;
    let level = 0;
    while (size * 2 <= end - at) {
      size *= 2;
      level++;
    }
    if (at % size !== 0) throw new RangeError(`[${start}, ${end}) is not a subtree of an RFC 9162 tree`);
    nodes.push({ level, index: at / size });
    at += size;
  }
  return nodes;
}

/** The nodes whose fold is the root of the tree of `size` leaves; none for the empty tree. */
export function rootPlan(size: number): NodeId[] {
  return subtreeNodes(0, size);
}

/** PATH(index, D[size]) of RFC 9162 §2.1.3.1: the audit path from the leaf up. */
export function inclusionPlan(index: number, size: number): ProofPlan {
  if (!(index >= 0 && index < size)) throw new RangeError(`leaf ${index} is not in a tree of ${size}`);
  const fromTop: NodeId[][] = [];
  let lo = 0;
  let hi = size;
  while (hi - lo > 1) {
    const k = splitPoint(hi - lo);
    if (index < lo + k) {
      fromTop.push(subtreeNodes(lo + k, hi));
      hi = lo + k;
    } else {
      fromTop.push(subtreeNodes(lo, lo + k));
      lo += k;
    }
  }
  return fromTop.reverse();
}

/** PROOF(first, D[second]) of RFC 9162 §2.1.4.1 (0 < first ≤ second); empty when the sizes are equal. */
export function consistencyPlan(first: number, second: number): ProofPlan {
  if (!(first > 0 && first <= second)) throw new RangeError(`no consistency proof from ${first} to ${second}`);
  if (first === second) return [];
  const fromTop: NodeId[][] = [];
  let lo = 0;
  let hi = second;
  let m = first;
  // `whole` is SUBPROOF's b: true while the old tree is the left edge of this subtree.
  let whole = true;
  while (m !== hi - lo) {
    const k = splitPoint(hi - lo);
    if (m <= k) {
      fromTop.push(subtreeNodes(lo + k, hi));
      hi = lo + k;
    } else {
      fromTop.push(subtreeNodes(lo, lo + k));
      lo += k;
      m -= k;
      whole = false;
    }
  }
  if (!whole) fromTop.push(subtreeNodes(lo, hi));
  return fromTop.reverse();
}

/** The distinct nodes a plan reads, each once: what to fetch before `proofHashes`. */
export function planNodes(plan: ProofPlan): NodeId[] {
  const seen = new Map<string, NodeId>();
  for (const step of plan) for (const n of step) seen.set(`${n.level}/${n.index}`, n);
  return [...seen.values()];
}

/** The proof's hashes from the plan and a lookup of the nodes it names. */
export function proofHashes(sha: Sha256, plan: ProofPlan, hashOf: (node: NodeId) => Uint8Array): Uint8Array[] {
  return plan.map((step) => foldFromRight(sha, step.map(hashOf)));
}
