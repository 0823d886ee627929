import test, { type ExecutionContext } from 'ava';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import nacl from 'tweetnacl';
import { cli, tempDir, writeFiles } from './harness.js';

interface KeyFileJson {
  public_key_b64: string;
  private_key_b64: string;
}

const b64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

function assertConsistent(t: ExecutionContext, key: KeyFileJson): void {
  t.deepEqual(Object.keys(key).sort(), ['private_key_b64', 'public_key_b64']);
  const seed = b64(key.private_key_b64);
  t.is(seed.length, 32, 'private_key_b64 is the 32-byte seed (ACTO SDK format)');
  t.deepEqual(b64(key.public_key_b64), nacl.sign.keyPair.fromSeed(seed).publicKey);
}

test('keygen without --out prints a key file whose public key belongs to its seed', async (t) => {
  const r = await cli(['keygen'], tempDir(t));
  t.is(r.code, 0, r.stderr);
  t.is(r.stderr, '');
  assertConsistent(t, JSON.parse(r.stdout) as KeyFileJson);
});

test('two keygens make different seeds', async (t) => {
  const dir = tempDir(t);
  const [a, b] = await Promise.all([cli(['keygen'], dir), cli(['keygen'], dir)]);
  t.not((JSON.parse(a.stdout) as KeyFileJson).private_key_b64, (JSON.parse(b.stdout) as KeyFileJson).private_key_b64);
});

test('keygen --out writes the key file with mode 0600', async (t) => {
  const dir = tempDir(t);
  const r = await cli(['keygen', '--out', 'device.json'], dir);
  t.is(r.code, 0, r.stderr);
  const path = join(dir, 'device.json');
  t.is(statSync(path).mode & 0o777, 0o600);
  const key = JSON.parse(readFileSync(path, 'utf8')) as KeyFileJson;
  assertConsistent(t, key);
  t.true(r.stdout.includes(key.public_key_b64), 'prints the public key to register');
  t.false(r.stdout.includes(key.private_key_b64), 'never prints the seed when writing a file');
});

test('keygen refuses to overwrite an existing file', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'device.json': 'precious' });
  const r = await cli(['keygen', '--out', 'device.json'], dir);
  t.is(r.code, 2);
  t.regex(r.stderr, /^proof-registry: device\.json already exists; refusing to overwrite/);
  t.is(readFileSync(join(dir, 'device.json'), 'utf8'), 'precious');
});

test('keygen into a missing directory is an input error', async (t) => {
  const r = await cli(['keygen', '--out', 'nope/device.json'], tempDir(t));
  t.is(r.code, 2);
  t.regex(r.stderr, /^proof-registry: nope\/device\.json: no such directory: nope/);
});

test('keygen --out says what is wrong with an empty name or a directory', async (t) => {
  const dir = tempDir(t);
  const empty = await cli(['keygen', '--out', ''], dir);
  t.is(empty.code, 2);
  t.regex(empty.stderr, /--out needs a file name/);
  const directory = await cli(['keygen', '--out', '.'], dir);
  t.is(directory.code, 2);
  t.regex(directory.stderr, /\. is a directory; --out takes the key file's own name/);
});

test('keygen rejects positional arguments and unknown options', async (t) => {
  const dir = tempDir(t);
  const extra = await cli(['keygen', 'device.json'], dir);
  t.is(extra.code, 2);
  t.regex(extra.stderr, /unexpected argument "device\.json"/);
  const unknown = await cli(['keygen', '--force'], dir);
  t.is(unknown.code, 2);
  t.is(unknown.stderr, 'proof-registry: unknown option --force (see --help)\n');
});
