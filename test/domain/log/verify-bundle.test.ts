import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cosignedMessage, cosignerKeyOf, formatCosignatureLine, formatCosignerVerifierKey } from '../../../src/domain/log/cosignature.js';
import { formatTlogProof, parseTlogProof, proofBundle, serializeBundle } from '../../../src/domain/log/proof-bundle.js';
import { parseWitnessPolicy } from '../../../src/domain/log/verify-bundle.js';
import { hexToBytes } from '../../../src/domain/protocol/encoding.js';
import { verifyBundle } from '../../../src/log-verification.js';
import { cli, tempDir } from '../../adapters/cli/harness.js';
import { aLog, ed, right } from '../../support/log-app.js';
import { sha } from '../../support/log.js';
import { anEnvelope } from '../../support/mothers.js';
import { protocol, testSeed } from '../../support/protocol.js';

/** A bundle of a real envelope at index 2 of a 5-leaf log on the in-memory adapters; `cosign` adds cosignature lines to its checkpoint. */
async function aBundle(cosign: (note: string) => string = (note) => note) {
  const log = aLog();
  log.sequence(0, 2);
  const envelope = anEnvelope({ taskId: 'bundle-domain' });
  const leaf = hexToBytes(envelope.payload.payload_hash)!;
  log.leaves.append(leaf);
  log.sequence(3, 5);
  right(await log.advance.execute());
  const proof = right(await log.proveInclusion.execute({ leaf }));
  const bundle = proofBundle({
    proofId: envelope.payload.payload_hash,
    envelope,
    envelopeText: JSON.stringify(envelope),
    logIndex: proof.logIndex,
    treeSize: proof.treeSize,
    leafHash: proof.leafHash,
    hashes: proof.hashes,
    checkpoint: cosign(proof.checkpoint!),
  });
  return { text: serializeBundle(bundle), bundle, vkey: log.key.vkey };
}

/** A witness: its cosigner key and a function adding its cosignature line to a note. */
function aWitness(name: string, n: number) {
  const seed = testSeed(n);
  const key = cosignerKeyOf(sha, name, ed.publicKey(seed));
  const cosign = (note: string): string => {
    const text = note.slice(0, note.indexOf('\n\n') + 1);
    const timestamp = 1_790_000_100;
    const signature = ed.sign(seed, cosignedMessage(text, timestamp));
    return note + formatCosignatureLine({ name, keyId: key.keyId, timestamp, signature });
  };
  return { key, vkey: formatCosignerVerifierKey(key), cosign, line: `witness ${name} ${formatCosignerVerifierKey(key)} https://${name}/` };
}

const statuses = (result: ReturnType<typeof verifyBundle>) => Object.fromEntries(result.checks.map((c) => [c.name, c.status]));

test('a bundle verifies; its tlog_proof is c2sp.org/tlog-proof@v1 and reads back', async (t) => {
  const { text, bundle, vkey } = await aBundle();
  const result = verifyBundle(text, { logKey: vkey, protocol });
  t.true(result.valid, JSON.stringify(result.checks));
  t.is(statuses(result).witnesses, 'skip');
  t.true(bundle.tlog_proof.startsWith(`c2sp.org/tlog-proof@v1\nindex 2\n`));
  const read = right(parseTlogProof(bundle.tlog_proof));
  t.is(read.index, 2);
  t.is(read.checkpoint, bundle.checkpoint);
  t.is(formatTlogProof(read.index, read.hashes, read.checkpoint), bundle.tlog_proof);
  t.true(E.isLeft(parseTlogProof('c2sp.org/tlog-proof@v1\nindex 01\n\nx')));
  t.true(E.isLeft(parseTlogProof('c2sp.org/tlog-proof@v1\nindex 1\nnot-base64\n\nx')));
});

test('each check fails on its own kind of change, re-serialized canonically', async (t) => {
  const { text, bundle, vkey } = await aBundle();
  const failing = (changed: object) => {
    const result = verifyBundle(serializeBundle({ ...bundle, ...changed }), { logKey: vkey, protocol });
    t.false(result.valid);
    return Object.entries(statuses(result))
      .filter(([, s]) => s === 'fail')
      .map(([n]) => n);
  };
  t.deepEqual(failing({ log_index: 1 }), ['inclusion', 'tlog_proof']);
  t.deepEqual(failing({ hashes: [...bundle.hashes].reverse() }), ['inclusion', 'tlog_proof']);
  t.deepEqual(failing({ leaf_hash: '00'.repeat(32) }), ['leaf_hash']);
  t.deepEqual(failing({ proof_id: 'ab'.repeat(32) }), ['proof_id', 'leaf_hash', 'inclusion']);
  t.deepEqual(failing({ tlog_proof: bundle.tlog_proof.replace('index 2', 'index 3') }), ['tlog_proof']);
  t.deepEqual(failing({ tree_size: 4 }), ['checkpoint']);
  const env = bundle.envelope as { payload: { meta?: unknown } };
  t.deepEqual(failing({ envelope: { ...env, payload: { ...env.payload, meta: { changed: true } } } }), ['envelope']);
  // Not canonical: the same bundle with other spacing, or members in another order.
  t.deepEqual(statuses(verifyBundle(JSON.stringify(bundle), { logKey: vkey, protocol })).canonical, 'fail');
  t.deepEqual(statuses(verifyBundle(text.replace('\n}\n', '\n}'), { logKey: vkey, protocol })).canonical, 'fail');
  t.deepEqual(statuses(verifyBundle('{', { logKey: vkey, protocol })).canonical, 'fail');
  t.is(statuses(verifyBundle(text.replace('bundle@v1', 'bundle@v2'), { logKey: vkey, protocol })).format, 'fail');
});

test('a witness policy: a quorum of valid cosignatures passes, fewer fail (library and CLI)', async (t) => {
  const one = aWitness('witness1.example', 7);
  const two = aWitness('witness2.example', 8);
  const { text, vkey } = await aBundle(one.cosign);
  const policy = (quorum: number) => `# test policy\n${one.line}\n${two.line}\nquorum ${quorum}\n`;
  const withQuorum = (quorum: number) => verifyBundle(text, { logKey: vkey, protocol, witnessPolicy: policy(quorum) });
  t.true(withQuorum(1).valid);
  t.regex(withQuorum(1).checks.find((c) => c.name === 'witnesses')!.detail, /1 of 2 witnesses cosigned \(witness1\.example\), quorum 1/);
  t.false(withQuorum(2).valid);
  t.is(statuses(withQuorum(2)).witnesses, 'fail');
  t.true(withQuorum(0).valid);
  // A cosignature by another key under the witness's name does not count.
  const impostor = aWitness('witness2.example', 9);
  const forged = await aBundle((note) => impostor.cosign(one.cosign(note)));
  t.false(verifyBundle(forged.text, { logKey: forged.vkey, protocol, witnessPolicy: policy(2) }).valid);
  const both = await aBundle((note) => two.cosign(one.cosign(note)));
  t.true(verifyBundle(both.text, { logKey: both.vkey, protocol, witnessPolicy: policy(2) }).valid);

  const dir = tempDir(t);
  writeFileSync(join(dir, 'b.json'), text);
  writeFileSync(join(dir, 'p1'), policy(1));
  writeFileSync(join(dir, 'p2'), policy(2));
  writeFileSync(join(dir, 'bad'), 'quorum 3\n');
  const ok = await cli(['verify', 'b.json', '--log-key', vkey, '--witness-policy', 'p1'], dir);
  t.is(ok.code, 0, ok.stdout + ok.stderr);
  t.regex(ok.stdout, /witnesses +pass +1 of 2/);
  t.is((await cli(['verify', 'b.json', '--log-key', vkey, '--witness-policy', 'p2'], dir)).code, 1);
  t.is((await cli(['verify', 'b.json', '--log-key', vkey, '--witness-policy', 'bad'], dir)).code, 2);
  t.is((await cli(['verify', 'b.json', '--witness-policy', 'p1'], dir)).code, 2);
});

test('witness policies that do not parse say where', (t) => {
  const w = aWitness('w.example', 3);
  const problem = (text: string) => {
    const parsed = parseWitnessPolicy(sha, text);
    return E.isLeft(parsed) ? parsed.left : 'parsed';
  };
  t.is(problem(`${w.line}\nquorum 1`), 'parsed');
  t.regex(problem('quorum 1'), /quorum 1 is more than the 0 witnesses/);
  t.regex(problem(`${w.line}\n${w.line}`), /line 2: witness w\.example is listed twice/);
  t.regex(problem(`witness other.example ${w.vkey} https://x/`), /line 1: the vkey is named w\.example/);
  t.regex(problem('quorum x'), /line 1: expected "quorum <n>"/);
  t.regex(problem('witnes a b c'), /unknown directive/);
  t.regex(problem(`witness w.example ${w.vkey}`), /expected "witness <name> <vkey> <url>"/);
});
