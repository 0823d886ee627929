import test from 'ava';
import fc from 'fast-check';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { SodiumEd25519 } from '../../../src/adapters/crypto/sodium-ed25519.js';
import type { SignatureVerifier } from '../../../src/domain/protocol/crypto.js';
import { hexToBytes } from '../../../src/domain/protocol/encoding.js';

const node = new NodeEd25519();

/** A second opinion that records whether it was asked. */
class Recorder implements SignatureVerifier {
  calls = 0;
  verify(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
    this.calls++;
    return node.verify(publicKey, message, signature);
  }
}

const load = (confirm: SignatureVerifier = node): SodiumEd25519 => {
  const sodium = SodiumEd25519.load(confirm);
  if (sodium === null) throw new Error('sodium-native must load where the tests run');
  return sodium;
};

const seed = (n: number) => Uint8Array.from({ length: 32 }, (_, i) => (i * 7 + n) & 0xff);
const message = new TextEncoder().encode('af1349b9f5f9a1a6a0404dea36dcc9499bcb25c9adc112b7cc9a93cae41f3262');

test('a valid signature is settled by libsodium alone', (t) => {
  const recorder = new Recorder();
  const sodium = load(recorder);
  const signature = sodium.sign(seed(1), message);
  t.true(sodium.verify(sodium.publicKey(seed(1)), message, signature));
  t.is(recorder.calls, 0);
});

test('a signature libsodium rejects is asked again, and rejected when both reject', (t) => {
  const recorder = new Recorder();
  const sodium = load(recorder);
  const signature = sodium.sign(seed(1), message);
  signature[0]! ^= 1;
  t.false(sodium.verify(sodium.publicKey(seed(1)), message, signature));
  t.is(recorder.calls, 1);
});

test('a strict-encoding failure (S ≥ L) is rejected before any curve arithmetic', (t) => {
  const recorder = new Recorder();
  const sodium = load(recorder);
  const signature = sodium.sign(seed(2), message);
  signature.fill(0xff, 32); // S = 2^256 - 1 > L
  t.false(sodium.verify(sodium.publicKey(seed(2)), message, signature));
  t.is(recorder.calls, 0);
});

test('small-order keys get the answer RFC 8032 (and node:crypto) gives, not libsodium’s stricter one', (t) => {
  // The identity point as the key and as R, with S = 0: [0]B = R + [k]A holds for any message.
  // RFC 8032 verification accepts it; libsodium alone refuses small-order points.
  const identity = hexToBytes('01' + '00'.repeat(31))!;
  const signature = new Uint8Array(64);
  signature.set(identity, 0);
  const recorder = new Recorder();
  const sodium = load(recorder);
  const verdict = sodium.verify(identity, message, signature);
  t.is(verdict, node.verify(identity, message, signature));
  t.is(recorder.calls, 1, 'libsodium refused it, so node:crypto was asked');
});

test('libsodium and node:crypto agree on signatures with any single bit flipped', (t) => {
  const sodium = load();
  fc.assert(
    fc.property(
      fc.uint8Array({ minLength: 32, maxLength: 32 }),
      fc.uint8Array({ maxLength: 200 }),
      fc.constantFrom('signature', 'key', 'message', 'none'),
      fc.nat(),
      (key, msg, where, bit) => {
        const publicKey = node.publicKey(key);
        const signature = node.sign(key, msg);
        const flip = (bytes: Uint8Array) => {
          if (bytes.length === 0) return bytes;
          const copy = Uint8Array.from(bytes);
          copy[(bit >> 3) % copy.length]! ^= 1 << (bit & 7);
          return copy;
        };
        const [k, m, s] =
          where === 'key'
            ? [flip(publicKey), msg, signature]
            : where === 'message'
              ? [publicKey, flip(msg), signature]
              : where === 'signature'
                ? [publicKey, msg, flip(signature)]
                : [publicKey, msg, signature];
        return sodium.verify(k, m, s) === node.verify(k, m, s) && (where !== 'none' || sodium.verify(k, m, s));
      },
    ),
    { numRuns: 300 },
  );
  t.pass();
});
