import test, { type ExecutionContext } from 'ava';
import nacl from 'tweetnacl';
import { cli, EVENTS, jsonl, keyJson, tempDir, VECTOR_SEED, writeFiles } from './harness.js';

const pair = nacl.sign.keyPair.fromSeed(VECTOR_SEED);
const other = nacl.sign.keyPair.fromSeed(new Uint8Array(32).fill(7));
const b64 = (bytes: Uint8Array): string => Buffer.from(bytes).toString('base64');

const SIGN = ['sign', '--key', 'key.json', '--task', 't-1', '--created-at', '2026-11-20T10:00:00Z', 'events.jsonl'];

async function signWith(t: ExecutionContext, keyText: string | null) {
  const dir = tempDir(t);
  writeFiles(dir, { 'events.jsonl': jsonl(EVENTS), ...(keyText === null ? {} : { 'key.json': keyText }) });
  return cli(SIGN, dir);
}

const accepted: Array<[string, string]> = [
  ['a 32-byte seed with its public key', keyJson({ public_key_b64: b64(pair.publicKey), private_key_b64: b64(VECTOR_SEED) })],
  ['a 32-byte seed alone', keyJson({ private_key_b64: b64(VECTOR_SEED) })],
  ['a 64-byte secret key (seed || public key)', keyJson({ private_key_b64: b64(pair.secretKey) })],
  ['a 64-byte secret key with its public key', keyJson({ public_key_b64: b64(pair.publicKey), private_key_b64: b64(pair.secretKey) })],
];

for (const [name, text] of accepted) {
  test(`sign accepts ${name}`, async (t) => {
    const r = await signWith(t, text);
    t.is(r.code, 0, r.stderr);
    const envelope = JSON.parse(r.stdout) as { signer_public_key_b64: string };
    t.is(envelope.signer_public_key_b64, b64(pair.publicKey));
  });
}

const rejected: Array<[string, string | null, RegExp]> = [
  ['a missing key file', null, /key file key\.json: no such file/],
  ['a key file that is not JSON', '{"private_key_b64": ', /key file key\.json: not valid JSON \(/],
  ['a key file that is not an object', '["x"]', /key file key\.json: must be a JSON object/],
  ['a key file without private_key_b64', keyJson({ public_key_b64: b64(pair.publicKey) }), /missing "private_key_b64"/],
  ['a private key that is not a string', keyJson({ private_key_b64: 42 }), /"private_key_b64" must be a base64 string/],
  ['a private key that is not base64', keyJson({ private_key_b64: 'not base64!' }), /"private_key_b64" is not standard padded base64/],
  ['a private key of the wrong length', keyJson({ private_key_b64: b64(new Uint8Array(16)) }), /must decode to 32 bytes \(seed\) or 64 bytes .*got 16/],
  [
    'a 64-byte secret key whose halves disagree',
    keyJson({ private_key_b64: b64(new Uint8Array([...VECTOR_SEED, ...other.publicKey])) }),
    /second half of "private_key_b64" is not the public key of its seed/,
  ],
  [
    'a public key that does not match the seed',
    keyJson({ public_key_b64: b64(other.publicKey), private_key_b64: b64(VECTOR_SEED) }),
    /"public_key_b64" does not match the public key of "private_key_b64"/,
  ],
];

for (const [name, text, message] of rejected) {
  test(`sign rejects ${name} (exit 2)`, async (t) => {
    const r = await signWith(t, text);
    t.is(r.code, 2);
    t.is(r.stdout, '');
    t.regex(r.stderr, /^proof-registry: key file key\.json: /);
    t.regex(r.stderr, message);
  });
}
