import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { formatSignedNote, openSignedNote, parseSignedNote } from '../../../src/domain/log/signed-note.js';
import { formatVerifierKey, noteKeyId, parseVerifierKey, verifierKeyOf, type VerifierKey } from '../../../src/domain/log/verifier-key.js';
import { decodeBase64Strict, utf8 } from '../../../src/domain/protocol/encoding.js';
import { sha } from '../../support/log.js';

const ed = new NodeEd25519();

function key(vkey: string): VerifierKey {
  const parsed = parseVerifierKey(sha, vkey);
  if (E.isLeft(parsed)) throw new Error(`vector vkey refused: ${JSON.stringify(parsed.left)}`);
  return parsed.right;
}

// The example of the C2SP signed-note specification (c2sp.org/signed-note, "Verifier keys").
const C2SP_VKEY = 'example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k';
const C2SP_NOTE =
  'This is an example message.\n\n— example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n';

// The example of Go's golang.org/x/mod/sumdb/note documentation, with its signing key.
const PETER_VKEY = 'PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW';
const PETER_SKEY_B64 = 'AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz';
const ENOCH_VKEY = 'EnochRoot+af0cfe78+ATtqJ7zOtqQtYqOo0CpvDXNlMhV3HeJDpjrASKGLWdop';
const TEXT = "If you think cryptography is the answer to your problem,\nthen you don't know what your problem is.\n";
const PETER_SIG = '— PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n';
const ENOCH_SIG = '— EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTGwnWLox33WWd1RvMc+QQ=\n';

test('the C2SP signed-note example opens with its verifier key', (t) => {
  t.deepEqual(openSignedNote(ed, C2SP_NOTE, key(C2SP_VKEY)), E.right('This is an example message.\n'));
});

test("Go's note example opens with PeterNeumann's key, and EnochRoot's co-signature with EnochRoot's", (t) => {
  t.deepEqual(openSignedNote(ed, `${TEXT}\n${PETER_SIG}`, key(PETER_VKEY)), E.right(TEXT));
  t.deepEqual(openSignedNote(ed, `${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, key(PETER_VKEY)), E.right(TEXT));
  t.deepEqual(openSignedNote(ed, `${TEXT}\n${PETER_SIG}${ENOCH_SIG}`, key(ENOCH_VKEY)), E.right(TEXT));
});

test("signing Go's example text with its published private key gives its signature line byte for byte", (t) => {
  const seed = decodeBase64Strict(PETER_SKEY_B64)!.slice(1);
  const publicKey = ed.publicKey(seed);
  const k = verifierKeyOf(sha, 'PeterNeumann', publicKey);
  t.is(formatVerifierKey(k), PETER_VKEY);
  t.is(noteKeyId(sha, 'PeterNeumann', publicKey), 'c74f20a3');
  const note = formatSignedNote({ text: TEXT, signatures: [{ name: k.name, keyId: k.keyId, signature: ed.sign(seed, utf8(TEXT)) }] });
  t.is(note, `${TEXT}\n${PETER_SIG}`);
});

test('a changed byte in the text, the signature, the key name or the key id: the note does not open', (t) => {
  const peter = key(PETER_VKEY);
  const note = `${TEXT}\n${PETER_SIG}`;
  t.like(openSignedNote(ed, note.replace('problem,', 'problem;'), peter), { left: { _tag: 'SignatureInvalid', keyName: 'PeterNeumann', keyId: 'c74f20a3' } });
  t.like(openSignedNote(ed, note.replace('x08go/ZJ', 'x08go/ZK'), peter), { left: { _tag: 'SignatureInvalid' } });
  // Another name or id makes the signature another key's, which this verifier ignores.
  t.like(openSignedNote(ed, note.replace('— PeterNeumann', '— PeterNeumanm'), peter), { left: { _tag: 'NoSignatureByKey', keyName: 'PeterNeumann' } });
  t.like(openSignedNote(ed, note.replace('x08go', 'x09go'), peter), { left: { _tag: 'NoSignatureByKey' } });
  t.like(openSignedNote(ed, note, key(ENOCH_VKEY)), { left: { _tag: 'NoSignatureByKey', keyName: 'EnochRoot', keyId: 'af0cfe78' } });
  t.like(openSignedNote(ed, C2SP_NOTE, peter), { left: { _tag: 'NoSignatureByKey' } });
});

test('a known key whose signature fails rejects the note, even beside a good one', (t) => {
  const broken = PETER_SIG.slice(0, 60) + 'ABCD' + PETER_SIG.slice(60);
  t.like(openSignedNote(ed, `${TEXT}\n${PETER_SIG}${broken}`, key(PETER_VKEY)), { left: { _tag: 'SignatureInvalid' } });
});

test('malformed notes are refused before any signature is checked', (t) => {
  const bad = [
    TEXT,
    `${TEXT}\n`,
    `${TEXT}\n${PETER_SIG.slice(0, -1)}`,
    `\u0001${TEXT}\n${PETER_SIG}`,
    `\uD800${TEXT}\n${PETER_SIG}`,
    `${TEXT}\n— Bad Name x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfqdngotpRZb6KE6RyyBwJnAM=\n`,
    `${TEXT}\n${PETER_SIG}Unexpected line.\n`,
    `${TEXT}\n${PETER_SIG.repeat(101)}`,
    `${TEXT}\n— PeterNeumann AAAA\n`,
    `${TEXT.replace('\n', '\r\n')}\n${PETER_SIG}`,
  ];
  for (const note of bad) t.like(parseSignedNote(note), { left: { _tag: 'MalformedNote' } }, JSON.stringify(note.slice(0, 40)));
  t.true(E.isRight(parseSignedNote(`${TEXT}\n${PETER_SIG.repeat(100)}`)));
});

test('a verifier key with any byte changed or cut is refused', (t) => {
  t.true(E.isRight(parseVerifierKey(sha, PETER_VKEY)));
  const refused = (vkey: string): boolean => E.isLeft(parseVerifierKey(sha, vkey));
  for (let i = 0; i < PETER_VKEY.length; i++) {
    const c = PETER_VKEY.charCodeAt(i);
    t.true(refused(PETER_VKEY.slice(0, i) + String.fromCharCode(c + 1) + PETER_VKEY.slice(i + 1)), `byte ${i} changed`);
    t.true(refused(PETER_VKEY.slice(0, i) + PETER_VKEY.slice(i + 1)), `byte ${i} cut`);
  }
  // From Go's tests: a key of the wrong length, and an unknown algorithm, each with a matching id.
  t.like(parseVerifierKey(sha, 'PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY=='), { left: { _tag: 'MalformedVerifierKey' } });
  t.deepEqual(
    parseVerifierKey(sha, 'PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW'),
    E.left({ _tag: 'MalformedVerifierKey', problem: 'signature type 0x65 is not Ed25519 (0x01)' }),
  );
});
