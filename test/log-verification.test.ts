import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { readFileSync } from 'node:fs';
import {
  logLeafHash,
  openCheckpoint,
  verifyConsistencyProof,
  verifyInclusionAnswer,
  verifyInclusionProof,
  type InclusionAnswerJson,
} from '../src/log-verification.js';
import { formatVerifierKey, verifierKeyOf } from '../src/domain/log/verifier-key.js';
import { aLog, ed, right } from './support/log-app.js';
import { hex, leafData, sha, unhex } from './support/log.js';

const vectors = JSON.parse(readFileSync(new URL('./fixtures/merkle/rfc6962-tree.json', import.meta.url), 'utf8')) as {
  leaves: string[];
  roots: string[];
  inclusion: Array<{ leaf_index: number; tree_size: number; hashes: string[] }>;
  consistency: Array<{ first: number; second: number; hashes: string[] }>;
};

test('the library verifies the RFC 6962 vectors and refuses them changed', (t) => {
  const v = vectors.inclusion[2]!;
  const proof = { leafIndex: v.leaf_index, treeSize: v.tree_size, leafHash: logLeafHash(unhex(vectors.leaves[v.leaf_index]!)), hashes: v.hashes.map(unhex) };
  const root = unhex(vectors.roots[v.tree_size - 1]!);
  t.deepEqual(verifyInclusionProof(proof, root), E.right(undefined));
  t.like(verifyInclusionProof({ ...proof, leafIndex: v.leaf_index + 1 }, root), { left: { _tag: 'RootMismatch' } });
  const c = vectors.consistency[3]!;
  const [r1, r2] = [c.first, c.second].map((s) => unhex(vectors.roots[s - 1]!)) as [Uint8Array, Uint8Array];
  t.deepEqual(verifyConsistencyProof({ first: c.first, second: c.second, hashes: c.hashes.map(unhex) }, r1, r2), E.right(undefined));
  t.like(verifyConsistencyProof({ first: c.first, second: c.second, hashes: c.hashes.slice(1).map(unhex) }, r1, r2), { left: { _tag: 'ProofLengthWrong' } });
});

const log = aLog();
let answer: InclusionAnswerJson;

test.before('a published log and one inclusion answer from it, as JSON', async () => {
  log.sequence(0, 1000);
  right(await log.advance.execute());
  const a = right(await log.proveInclusion.execute({ leaf: leafData(777) }));
  answer = { log_index: a.logIndex, tree_size: a.treeSize, leaf_hash: hex(a.leafHash), hashes: a.hashes.map(hex), checkpoint: a.checkpoint! };
});

test('an inclusion answer checks out offline with the vkey, for the leaf it is about', (t) => {
  const opened = right(openCheckpoint(answer.checkpoint, log.key.vkey));
  t.is(opened.size, 1000);
  t.like(verifyInclusionAnswer(answer, log.key.vkey, leafData(777)), { right: { size: 1000, origin: log.key.origin } });
});

test('an inclusion answer that was changed, or for another leaf or key, is refused with the reason', (t) => {
  const otherKey = formatVerifierKey(verifierKeyOf(sha, log.key.keyName, ed.publicKey(new Uint8Array(32).fill(7))));
  t.like(verifyInclusionAnswer(answer, log.key.vkey, leafData(778)), { left: { _tag: 'LeafMismatch' } });
  t.like(verifyInclusionAnswer({ ...answer, log_index: 776 }, log.key.vkey), { left: { _tag: 'RootMismatch' } });
  t.like(verifyInclusionAnswer({ ...answer, tree_size: 999 }, log.key.vkey), { left: { _tag: 'CheckpointSizeMismatch', treeSize: 999, checkpointSize: 1000 } });
  t.like(verifyInclusionAnswer({ ...answer, hashes: answer.hashes.slice(1) }, log.key.vkey), { left: { _tag: 'ProofLengthWrong' } });
  t.like(verifyInclusionAnswer({ ...answer, checkpoint: answer.checkpoint.replace('\n1000\n', '\n1001\n') }, log.key.vkey), {
    left: { _tag: 'SignatureInvalid' },
  });
  t.like(verifyInclusionAnswer({ ...answer, leaf_hash: answer.leaf_hash.toUpperCase() }, log.key.vkey), { left: { _tag: 'MalformedAnswer' } });
  t.like(verifyInclusionAnswer(answer, otherKey), { left: { _tag: 'NoSignatureByKey' } });
  t.like(verifyInclusionAnswer(answer, log.key.vkey.slice(0, -2)), { left: { _tag: 'MalformedVerifierKey' } });
});
