import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { formatCheckpoint, parseCheckpoint } from '../../../src/domain/log/checkpoint.js';
import { openCheckpoint } from '../../../src/domain/log/open-checkpoint.js';
import { formatSignedNote } from '../../../src/domain/log/signed-note.js';
import { verifierKeyOf } from '../../../src/domain/log/verifier-key.js';
import { encodeBase64, utf8 } from '../../../src/domain/protocol/encoding.js';
import { hex, sha } from '../../support/log.js';

const ed = new NodeEd25519();

// The example of c2sp.org/tlog-checkpoint.
const C2SP_TEXT = 'example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n';

test('the C2SP checkpoint example reads as origin, size and root, and writes back the same', (t) => {
  const parsed = parseCheckpoint(C2SP_TEXT);
  if (E.isLeft(parsed)) return t.fail(JSON.stringify(parsed.left));
  t.is(parsed.right.origin, 'example.com/behind-the-sofa');
  t.is(parsed.right.size, 20_852_163);
  t.is(hex(parsed.right.rootHash), '0ac5186a91863e8e1d90c808014aa89bf5da8e3ee1d9f07630f0378f68f1ab62');
  t.deepEqual(parsed.right.extensions, []);
  t.is(formatCheckpoint(parsed.right), C2SP_TEXT);
  t.is(formatCheckpoint({ ...parsed.right, extensions: ['x'] }), `${C2SP_TEXT}x\n`);
});

test('checkpoint texts that are not one are refused, each with its reason', (t) => {
  const root = 'CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=';
  const bad = [
    `o\n1\n${root}`, // no final newline
    `o\n1\n`,
    `\n1\n${root}\n`,
    `o\n01\n${root}\n`,
    `o\n-1\n${root}\n`,
    `o\n1.0\n${root}\n`,
    `o\n99999999999999999999\n${root}\n`,
    `o\n1\n${root.slice(4)}\n`,
    `o\n1\n${root}\n\n`,
    `o\n1\n${root}\next\n\n`,
  ];
  for (const text of bad) t.like(parseCheckpoint(text), { left: { _tag: 'MalformedCheckpoint' } }, JSON.stringify(text));
  t.true(E.isRight(parseCheckpoint(`o\n0\n${root}\n`)));
});

test('a checkpoint signed by the log opens with its vkey; another origin, size or key does not', (t) => {
  const seed = new Uint8Array(32).fill(9);
  const key = verifierKeyOf(sha, 'registry.example/proof-registry', ed.publicKey(seed));
  const sign = (text: string, name = key.name): string =>
    formatSignedNote({ text, signatures: [{ name, keyId: key.keyId, signature: ed.sign(seed, utf8(text)) }] });
  const root = new Uint8Array(32).fill(1);
  const text = formatCheckpoint({ origin: key.name, size: 42, rootHash: root, extensions: [] });
  const note = sign(text);

  t.deepEqual(openCheckpoint(ed, note, key), E.right({ origin: key.name, size: 42, rootHash: root, extensions: [] }));
  t.like(openCheckpoint(ed, note.replace('\n42\n', '\n43\n'), key), { left: { _tag: 'SignatureInvalid' } });
  t.like(openCheckpoint(ed, note.replace(encodeBase64(root), encodeBase64(new Uint8Array(32).fill(2))), key), { left: { _tag: 'SignatureInvalid' } });
  const otherLog = sign(formatCheckpoint({ origin: 'other.example/log', size: 42, rootHash: root, extensions: [] }));
  t.deepEqual(openCheckpoint(ed, otherLog, key), E.left({ _tag: 'OriginMismatch', expected: key.name, actual: 'other.example/log' }));
  t.true(E.isRight(openCheckpoint(ed, otherLog, key, { origin: 'other.example/log' })));
  const stranger = verifierKeyOf(sha, key.name, ed.publicKey(new Uint8Array(32).fill(8)));
  t.like(openCheckpoint(ed, note, stranger), { left: { _tag: 'NoSignatureByKey' } });
  t.like(openCheckpoint(ed, sign('not a checkpoint\n'), key), { left: { _tag: 'MalformedCheckpoint' } });
});
