import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { createHash } from 'node:crypto';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import {
  cosignatureOf,
  cosignedMessage,
  cosignerKeyId,
  cosignerKeyOf,
  formatCosignatureLine,
  formatCosignerVerifierKey,
  openCosignedNote,
  parseCosignerVerifierKey,
  verifyCosignature,
} from '../../../src/domain/log/cosignature.js';
import { parseSignedNote } from '../../../src/domain/log/signed-note.js';
import { parseVerifierKey } from '../../../src/domain/log/verifier-key.js';
import { decodeBase64Strict } from '../../../src/domain/protocol/encoding.js';
import { sha } from '../../support/log.js';

const ed = new NodeEd25519();

// c2sp.org/tlog-cosignature: the example checkpoint with a cosignature, and the signed message of its "Ed25519 signed message".
const CHECKPOINT_TEXT = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';
const LOG_LINE = '— example.com/behind-the-sofa Az3grlgtzPICa5OS8npVmf1Myq/5IZniMp+ZJurmRDeOoRDe4URYN7u5/Zhcyv2q1gGzGku9nTo+zyWE+xeMcTOAYQ8=\n';
const WITNESS_LINE = '— witness.example.com/w1 jWbPPwAAAABkGFDLEZMHwSRaJNiIDoe9DYn/zXcrtPHeolMI5OWXEhZCB9dlrDJsX3b2oyin1nPZqhf5nNo0xUe+mbIUBkBIfZ+qnA==\n';
const SPEC_MESSAGE = 'cosignature/v1\ntime 1679315147\nexample.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';

// c2sp.org/signed-note "Verifier keys" example: an Ed25519 (type 0x01) note key.
const C2SP_VKEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';

const SEED = new Uint8Array(32).fill(7);

test("the spec's example cosignature line reads as key id 8d66cf3f, the time of the spec's signed message, and a 64-byte signature", (t) => {
  const note = parseSignedNote(`${CHECKPOINT_TEXT}\n${LOG_LINE}${WITNESS_LINE}`);
  if (E.isLeft(note)) return t.fail(JSON.stringify(note.left));
  t.is(note.right.text, CHECKPOINT_TEXT);
  const cosignature = cosignatureOf(note.right.signatures[1]!);
  t.truthy(cosignature);
  t.is(cosignature!.name, 'witness.example.com/w1');
  t.is(cosignature!.keyId, '8d66cf3f');
  t.is(cosignature!.timestamp, 1679315147);
  t.is(cosignature!.signature.length, 64);
  // Re-formatting what was read gives the spec's line byte for byte.
  t.is(formatCosignatureLine(cosignature!), WITNESS_LINE);
  // Its signed message is the one the spec writes out.
  t.is(new TextDecoder().decode(cosignedMessage(CHECKPOINT_TEXT, cosignature!.timestamp)), SPEC_MESSAGE);
  // The log's own line (a plain Ed25519 note signature, 64 bytes) is not a cosignature.
  t.is(cosignatureOf(note.right.signatures[0]!), null);
});

test('the key id is SHA-256(name ‖ 0x0A ‖ 0x04 ‖ key)[:4]: for the signed-note example key, another id than its 0x01 one', (t) => {
  const noteKey = parseVerifierKey(sha, C2SP_VKEY);
  if (E.isLeft(noteKey)) return t.fail();
  const publicKey = noteKey.right.publicKey;
  const expected = createHash('sha256')
    .update(Buffer.concat([Buffer.from('example.com/foo\n'), Buffer.from([0x04]), Buffer.from(publicKey)]))
    .digest()
    .subarray(0, 4)
    .toString('hex');
  t.is(cosignerKeyId(sha, 'example.com/foo', publicKey), expected);
  t.not(expected, '530d903a');
  // Its cosigner vkey: the same name and key, type 0x04 and this id; it reads back.
  const vkey = formatCosignerVerifierKey(cosignerKeyOf(sha, 'example.com/foo', publicKey));
  t.is(vkey, `example.com/foo+${expected}+${Buffer.concat([Buffer.from([0x04]), Buffer.from(publicKey)]).toString('base64')}`);
  t.deepEqual(parseCosignerVerifierKey(sha, vkey), E.right(cosignerKeyOf(sha, 'example.com/foo', publicKey)));
});

test('a cosigner vkey must be type 0x04 with its own id: the note key (0x01) and an edited id are refused', (t) => {
  const refused = parseCosignerVerifierKey(sha, C2SP_VKEY);
  t.true(E.isLeft(refused) && refused.left._tag === 'MalformedVerifierKey' && /0x01/.test(refused.left.problem));
  const key = cosignerKeyOf(sha, 'w.example/1', ed.publicKey(SEED));
  const vkey = formatCosignerVerifierKey(key);
  const edited = vkey.replace(`+${key.keyId}+`, '+00000000+');
  t.true(E.isLeft(parseCosignerVerifierKey(sha, edited)));
  t.true(E.isLeft(parseCosignerVerifierKey(sha, `${vkey}+x`)));
});

test('a cosignature signed over the message verifies with its key, and no longer once the text, time, name or key changes', (t) => {
  const key = cosignerKeyOf(sha, 'w.example/1', ed.publicKey(SEED));
  const timestamp = 1_800_000_000;
  const signature = ed.sign(SEED, cosignedMessage(CHECKPOINT_TEXT, timestamp));
  const line = formatCosignatureLine({ name: key.name, keyId: key.keyId, timestamp, signature });
  t.regex(line, /^— w\.example\/1 [A-Za-z0-9+/]{102}==\n$/);
  t.is(decodeBase64Strict(line.split(' ')[2]!.trim())!.length, 4 + 8 + 64);

  const opened = openCosignedNote(ed, `${CHECKPOINT_TEXT}\n${LOG_LINE}${line}`, key);
  if (E.isLeft(opened)) return t.fail(JSON.stringify(opened.left));
  t.is(opened.right.length, 1);
  t.is(opened.right[0]!.timestamp, timestamp);

  const cosignature = opened.right[0]!;
  t.true(verifyCosignature(ed, CHECKPOINT_TEXT, cosignature, key));
  t.false(verifyCosignature(ed, CHECKPOINT_TEXT.replace('20852163', '20852164'), cosignature, key));
  t.false(verifyCosignature(ed, CHECKPOINT_TEXT, { ...cosignature, timestamp: timestamp + 1 }, key));
  const other = cosignerKeyOf(sha, 'w.example/2', ed.publicKey(SEED));
  t.false(verifyCosignature(ed, CHECKPOINT_TEXT, cosignature, other));
  // A plain note signature over the same text (type 0x01 message) is not a cosignature.
  t.false(verifyCosignature(ed, CHECKPOINT_TEXT, { ...cosignature, signature: ed.sign(SEED, new TextEncoder().encode(CHECKPOINT_TEXT)) }, key));

  // In a note: no line by the key → refused; a changed line by the key → refused.
  const none = openCosignedNote(ed, `${CHECKPOINT_TEXT}\n${LOG_LINE}`, key);
  t.true(E.isLeft(none) && none.left._tag === 'NoSignatureByKey');
  const tampered = openCosignedNote(ed, `${CHECKPOINT_TEXT.replace('20852163', '20852164')}\n${line}`, key);
  t.true(E.isLeft(tampered) && tampered.left._tag === 'SignatureInvalid');
});

test('a timestamp past 2^53 is not read as a cosignature; a negative or fractional one cannot be signed', (t) => {
  const bytes = new Uint8Array(72);
  new DataView(bytes.buffer).setBigUint64(0, 2n ** 63n - 1n);
  t.is(cosignatureOf({ name: 'w', keyId: '00000000', signature: bytes }), null);
  t.throws(() => cosignedMessage(CHECKPOINT_TEXT, -1));
  t.throws(() => cosignedMessage(CHECKPOINT_TEXT, 1.5));
});

test('a cosigner vkey whose base64 key holds a plus sign reads back (only the name and the id are split off)', (t) => {
  let publicKey: Uint8Array | undefined;
  for (let i = 0; publicKey === undefined; i++) {
    const candidate = new Uint8Array(createHash('sha256').update(`plus ${i}`).digest());
    if (
      Buffer.concat([Buffer.from([0x04]), candidate])
        .toString('base64')
        .includes('+')
    )
      publicKey = candidate;
  }
  const key = cosignerKeyOf(sha, 'witness.example', publicKey);
  const vkey = formatCosignerVerifierKey(key);
  t.true(vkey.split('+').length > 3, vkey);
  t.deepEqual(parseCosignerVerifierKey(sha, vkey), E.right(key));
});
