import test from 'ava';
import canonicalize from 'canonicalize';
import { blake3 } from 'hash-wasm';
import nacl from 'tweetnacl';
import { cli, EVENTS, jsonl, keyJson, tempDir, writeFiles } from './harness.js';

/**
 * Checks a CLI-made envelope against docs/protocol.md using only third-party code (canonicalize,
 * hash-wasm, tweetnacl), so a bug shared by the project's signer and verifier cannot hide.
 */
interface Envelope {
  payload: Record<string, unknown> & { telemetry_hash: string; payload_hash: string };
  signer_public_key_b64: string;
  signature_b64: string;
}

const hashCanonical = async (value: unknown): Promise<string> => blake3(new TextEncoder().encode(canonicalize(value)!), 256);

test('a CLI-made envelope verifies under an independent implementation of the protocol', async (t) => {
  const dir = tempDir(t);
  const keygen = await cli(['keygen', '--out', 'key.json'], dir);
  t.is(keygen.code, 0, keygen.stderr);
  writeFiles(dir, { 'events.jsonl': jsonl(EVENTS) });
  const meta = { site: 'Zürich', n: [1.5, -0, 1e-7] };
  const args = ['sign', '--key', 'key.json', '--task', 'task-7', '--robot', 'arm-1', '--meta', JSON.stringify(meta), 'events.jsonl'];
  const r = await cli(args, dir);
  t.is(r.code, 0, r.stderr);
  const envelope = JSON.parse(r.stdout) as Envelope;
  const { payload } = envelope;

  t.is(await hashCanonical(payload.telemetry_normalized), payload.telemetry_hash);
  const { payload_hash: payloadHash, ...unsigned } = payload;
  t.is(await hashCanonical(unsigned), payloadHash);
  t.regex(payloadHash, /^[0-9a-f]{64}$/);

  const publicKey = new Uint8Array(Buffer.from(envelope.signer_public_key_b64, 'base64'));
  const signature = new Uint8Array(Buffer.from(envelope.signature_b64, 'base64'));
  t.is(publicKey.length, 32);
  t.is(signature.length, 64);
  // The signed message is the 64 hex characters of payload_hash, as UTF-8 text.
  t.true(nacl.sign.detached.verify(new TextEncoder().encode(payloadHash), signature, publicKey));
  t.false(nacl.sign.detached.verify(Buffer.from(payloadHash, 'hex'), signature, publicKey), 'not the raw digest bytes');

  t.is(/public_key_b64 (\S+)/.exec(keygen.stdout)?.[1], envelope.signer_public_key_b64, 'signed with the key keygen made');
});

test('the independent check notices a tampered envelope', async (t) => {
  const dir = tempDir(t);
  const seed = new Uint8Array(32).fill(9);
  writeFiles(dir, { 'key.json': keyJson({ private_key_b64: Buffer.from(seed).toString('base64') }), 'e.jsonl': jsonl(EVENTS) });
  const r = await cli(['sign', '--key', 'key.json', '--task', 't', 'e.jsonl'], dir);
  const envelope = JSON.parse(r.stdout) as Envelope;
  const { payload_hash: _claimed, ...unsigned } = { ...envelope.payload, created_at: '2000-01-01T00:00:00Z' };
  t.not(await hashCanonical(unsigned), envelope.payload.payload_hash);
});
