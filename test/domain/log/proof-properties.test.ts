import test from 'ava';
import fc from 'fast-check';
import * as E from 'fp-ts/lib/Either.js';
import { leafHash, nodeHash } from '../../../src/domain/log/merkle.js';
import { consistencyPlan, inclusionPlan, proofHashes, rootPlan, type NodeId } from '../../../src/domain/log/proof-plans.js';
import { verifyConsistency, verifyInclusion } from '../../../src/domain/log/verify-proofs.js';
import { hex, ReferenceTree, sha } from '../../support/log.js';

const NUM_RUNS = 300;
const MAX_SIZE = 600;

/** One reference tree of MAX_SIZE distinct leaves; a tree of size n is its first n leaves. */
const big = ReferenceTree.ofSize(MAX_SIZE);
const mth = (lo: number, hi: number): Uint8Array => big.mth(lo, hi);
const hashOf = (n: NodeId): Uint8Array => mth(n.index * 2 ** n.level, (n.index + 1) * 2 ** n.level);
const root = (size: number): Uint8Array => mth(0, size);
const inclusion = (i: number, n: number) => ({ leafIndex: i, treeSize: n, leafHash: big.leaves[i]!, hashes: proofHashes(sha, inclusionPlan(i, n), hashOf) });
const consistency = (m: number, n: number) => ({ first: m, second: n, hashes: proofHashes(sha, consistencyPlan(m, n), hashOf) });

/** A tree size and a leaf index in it. */
const leafInTree = fc.integer({ min: 1, max: MAX_SIZE }).chain((n) => fc.tuple(fc.integer({ min: 0, max: n - 1 }), fc.constant(n)));
/** Two tree sizes 0 < m ≤ n. */
const sizePair = fc.integer({ min: 1, max: MAX_SIZE }).chain((n) => fc.tuple(fc.integer({ min: 1, max: n }), fc.constant(n)));

function flipBit(bytes: Uint8Array, bit: number): Uint8Array {
  const out = bytes.slice();
  out[Math.floor(bit / 8) % out.length]! ^= 1 << (bit % 8);
  return out;
}

test('any leaf of any tree: the inclusion proof is RFC 9162 PATH and verifies against the root', (t) => {
  fc.assert(
    fc.property(leafInTree, ([i, n]) => {
      const proof = inclusion(i, n);
      return proof.hashes.map(hex).join() === big.path(i, 0, n).map(hex).join() && E.isRight(verifyInclusion(sha, proof, root(n)));
    }),
    { numRuns: NUM_RUNS },
  );
  t.pass();
});

test('any sizes m ≤ n: the consistency proof is RFC 9162 PROOF and verifies against both roots', (t) => {
  fc.assert(
    fc.property(sizePair, ([m, n]) => {
      const proof = consistency(m, n);
      return proof.hashes.map(hex).join() === big.consistency(m, n).map(hex).join() && E.isRight(verifyConsistency(sha, proof, root(m), root(n)));
    }),
    { numRuns: NUM_RUNS },
  );
  t.pass();
});

test('an inclusion proof fails with any bit changed in a proof hash, the leaf hash or the root', (t) => {
  fc.assert(
    fc.property(leafInTree, fc.nat(), fc.nat(255), ([i, n], pick, bit) => {
      const proof = inclusion(i, n);
      const slots = proof.hashes.length + 2;
      const which = pick % slots;
      if (which === 0) return E.isLeft(verifyInclusion(sha, { ...proof, leafHash: flipBit(proof.leafHash, bit) }, root(n)));
      if (which === 1) return E.isLeft(verifyInclusion(sha, proof, flipBit(root(n), bit)));
      const hashes = proof.hashes.map((h, k) => (k === which - 2 ? flipBit(h, bit) : h));
      return E.isLeft(verifyInclusion(sha, { ...proof, hashes }, root(n)));
    }),
    { numRuns: NUM_RUNS },
  );
  t.pass();
});

test('an inclusion proof fails for any other leaf index, and against any other tree size and its root', (t) => {
  fc.assert(
    fc.property(leafInTree, fc.nat(MAX_SIZE), fc.integer({ min: 1, max: MAX_SIZE }), ([i, n], j, other) => {
      const proof = inclusion(i, n);
      const otherIndex = j === i ? true : E.isLeft(verifyInclusion(sha, { ...proof, leafIndex: j }, root(n)));
      // A tree size is always checked with its own root: a checkpoint signs the two together.
      const otherSize = other === n ? true : E.isLeft(verifyInclusion(sha, { ...proof, treeSize: other }, root(other)));
      return otherIndex && otherSize;
    }),
    { numRuns: NUM_RUNS },
  );
  t.pass();
});

test('a consistency proof fails with any bit changed, and for any other pair of sizes with their roots', (t) => {
  fc.assert(
    fc.property(sizePair, fc.nat(), fc.nat(255), sizePair, ([m, n], pick, bit, [m2, n2]) => {
      const proof = consistency(m, n);
      const slots = proof.hashes.length + 2;
      const which = pick % slots;
      const changed =
        which === 0
          ? verifyConsistency(sha, proof, flipBit(root(m), bit), root(n))
          : which === 1
            ? verifyConsistency(sha, proof, root(m), flipBit(root(n), bit))
            : verifyConsistency(sha, { ...proof, hashes: proof.hashes.map((h, k) => (k === which - 2 ? flipBit(h, bit) : h)) }, root(m), root(n));
      // Between equal sizes the empty proof is every tree's, so it proves nothing either way.
      const same = (m2 === m && n2 === n) || (m === n && m2 === n2);
      const other = same ? true : E.isLeft(verifyConsistency(sha, { first: m2, second: n2, hashes: proof.hashes }, root(m2), root(n2)));
      // Equal sizes need no proof: flipping a root is the only change there is.
      return (m === n && which > 1 ? true : E.isLeft(changed)) && other;
    }),
    { numRuns: NUM_RUNS },
  );
  t.pass();
});

/**
 * Past 2^32 leaves: a tree whose leaves are all equal has one hash per level, so proofs in
 * trees up to 2^53 − 1 leaves can be built and checked, which catches any arithmetic that
 * silently drops to 32 bits.
 */
test('in trees of up to 2^53 − 1 leaves, inclusion and consistency proofs verify', (t) => {
  const perLevel = [leafHash(sha, new Uint8Array([7]))];
  for (let l = 1; l <= 53; l++) perLevel.push(nodeHash(sha, perLevel[l - 1]!, perLevel[l - 1]!));
  const uniform = (node: NodeId): Uint8Array => perLevel[node.level]!;
  const rootOf = (size: number): Uint8Array => proofHashes(sha, [rootPlan(size)], uniform)[0]!;
  const size = fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER });
  fc.assert(
    fc.property(size, size, fc.double({ min: 0, max: 1, noNaN: true }), (a, b, at) => {
      const [m, n] = a <= b ? [a, b] : [b, a];
      const i = Math.min(n - 1, Math.floor(at * n));
      const incl = { leafIndex: i, treeSize: n, leafHash: perLevel[0]!, hashes: proofHashes(sha, inclusionPlan(i, n), uniform) };
      const cons = { first: m, second: n, hashes: proofHashes(sha, consistencyPlan(m, n), uniform) };
      return E.isRight(verifyInclusion(sha, incl, rootOf(n))) && E.isRight(verifyConsistency(sha, cons, rootOf(m), rootOf(n))) && incl.hashes.length <= 53;
    }),
    { numRuns: NUM_RUNS },
  );
  t.pass();
});
