import test from 'ava';
import { HashWasmBlake3 } from '../../../src/adapters/crypto/hash-wasm-blake3.js';
import { readJsonFixture } from '../../support/fixtures.js';

interface Blake3Vectors {
  cases: Array<{ input_len: number; hash: string }>;
}
const vectors = readJsonFixture<Blake3Vectors>('blake3/test_vectors.json');
const blake3 = await HashWasmBlake3.create();

test('matches every official BLAKE3 vector (first 32 bytes)', (t) => {
  t.true(vectors.cases.length > 30);
  for (const c of vectors.cases) {
    const input = Uint8Array.from({ length: c.input_len }, (_, i) => i % 251);
    t.is(blake3.hashBytes(input), c.hash.slice(0, 64), `input_len ${c.input_len}`);
  }
});

test('hashText hashes the UTF-8 bytes of the text', (t) => {
  t.is(blake3.hashText('é✓'), blake3.hashBytes(new TextEncoder().encode('é✓')));
  t.not(blake3.hashText('a'), blake3.hashText('b'));
});
