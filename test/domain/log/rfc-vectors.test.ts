import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { readFileSync } from 'node:fs';
import { emptyRoot, leafHash, nodeHash, rootOfLeafHashes } from '../../../src/domain/log/merkle.js';
import { consistencyPlan, inclusionPlan, proofHashes, rootPlan } from '../../../src/domain/log/proof-plans.js';
import { verifyConsistency, verifyInclusion } from '../../../src/domain/log/verify-proofs.js';
import { hex, ReferenceTree, sha, unhex } from '../../support/log.js';

/** The eight-leaf tree of RFC 6962 test data (certificate-transparency-go, transparency-dev/merkle). */
interface TreeVectors {
  leaves: string[];
  empty_root: string;
  roots: string[];
  inclusion: Array<{ leaf_index: number; tree_size: number; hashes: string[] }>;
  consistency: Array<{ first: number; second: number; hashes: string[] }>;
}
const vectors = JSON.parse(readFileSync(new URL('../../fixtures/merkle/rfc6962-tree.json', import.meta.url), 'utf8')) as TreeVectors;
const tree = new ReferenceTree(vectors.leaves.map(unhex));

/** A node's hash for the plans, straight from the leaves. */
const hashOf = (node: { level: number; index: number }): Uint8Array => tree.mth(node.index * 2 ** node.level, (node.index + 1) * 2 ** node.level);

test('the hashes of RFC 6962 test data: empty tree, a leaf, a node', (t) => {
  t.is(hex(emptyRoot(sha)), vectors.empty_root);
  t.is(hex(leafHash(sha, new Uint8Array(0))), '6e340b9cffb37a989ca544e6bb780a2c78901d3fb33738768511a30617afa01d');
  t.is(hex(leafHash(sha, new TextEncoder().encode('L123456'))), '395aa064aa4c29f7010acfe3f25db9485bbd4b91897b6ad7ad547639252b4d56');
  const n = (s: string) => new TextEncoder().encode(s);
  t.is(hex(nodeHash(sha, n('N123'), n('N456'))), 'aa217fe888e47007fa15edab33c2b492a722cb106c64667fc2b044444de66bbb');
});

test('the eight-leaf tree has the published root at every size, from leaves and from the root plan', (t) => {
  vectors.roots.forEach((root, i) => {
    const size = i + 1;
    t.is(hex(rootOfLeafHashes(sha, tree.leaves.slice(0, size))), root, `size ${size}`);
    t.is(hex(proofHashes(sha, [rootPlan(size)], hashOf)[0]!), root, `size ${size} by plan`);
  });
  t.deepEqual(rootPlan(0), []);
});

for (const v of vectors.inclusion) {
  test(`inclusion vector: leaf ${v.leaf_index} in a tree of ${v.tree_size}`, (t) => {
    const hashes = proofHashes(sha, inclusionPlan(v.leaf_index, v.tree_size), hashOf);
    t.deepEqual(hashes.map(hex), v.hashes);
    const proof = { leafIndex: v.leaf_index, treeSize: v.tree_size, leafHash: tree.leaves[v.leaf_index]!, hashes: v.hashes.map(unhex) };
    t.deepEqual(verifyInclusion(sha, proof, unhex(vectors.roots[v.tree_size - 1]!)), E.right(undefined));
  });
}

for (const v of vectors.consistency) {
  test(`consistency vector: ${v.first} to ${v.second}`, (t) => {
    const hashes = proofHashes(sha, consistencyPlan(v.first, v.second), hashOf);
    t.deepEqual(hashes.map(hex), v.hashes);
    const roots = [v.first, v.second].map((s) => unhex(vectors.roots[s - 1]!)) as [Uint8Array, Uint8Array];
    t.deepEqual(verifyConsistency(sha, { first: v.first, second: v.second, hashes: v.hashes.map(unhex) }, ...roots), E.right(undefined));
  });
}

/** transparency-dev/merkle's probes: the vectors above, each also broken in a dozen ways. */
interface Probe {
  file: string;
  desc: string;
  wantErr: boolean;
}
const probes = <P extends Probe>(kind: string): P[] =>
  JSON.parse(readFileSync(new URL(`../../fixtures/merkle/${kind}-probes.json`, import.meta.url), 'utf8')) as P[];
const b64 = (text: string | null): Uint8Array => (text === null ? new Uint8Array(0) : new Uint8Array(Buffer.from(text, 'base64')));

test('every inclusion probe of transparency-dev/merkle gets its expected verdict', (t) => {
  const all = probes<Probe & { leafIdx: number; treeSize: number; root: string | null; leafHash: string | null; proof: string[] | null }>('inclusion');
  t.is(all.length, 98);
  for (const p of all) {
    const result = verifyInclusion(
      sha,
      { leafIndex: p.leafIdx, treeSize: p.treeSize, leafHash: b64(p.leafHash), hashes: (p.proof ?? []).map(b64) },
      b64(p.root),
    );
    t.is(E.isLeft(result), p.wantErr, `${p.file}: ${p.desc}`);
  }
});

test('every consistency probe of transparency-dev/merkle gets its expected verdict', (t) => {
  const all = probes<Probe & { size1: number; size2: number; root1: string | null; root2: string | null; proof: string[] | null }>('consistency');
  t.is(all.length, 98);
  for (const p of all) {
    const hashes = (p.proof ?? []).map(b64);
    const result = verifyConsistency(sha, { first: p.size1, second: p.size2, hashes }, b64(p.root1), b64(p.root2));
    // One probe passes 12-byte "roots" that are equal; this verifier refuses any hash that is not 32 bytes.
    const notHashes = [b64(p.root1), b64(p.root2), ...hashes].some((h) => h.length !== 32);
    if (!p.wantErr && notHashes) t.like(result, { _tag: 'Left', left: { _tag: 'MalformedHash' } }, `${p.file}: ${p.desc}`);
    else t.is(E.isLeft(result), p.wantErr, `${p.file}: ${p.desc}`);
  }
});
