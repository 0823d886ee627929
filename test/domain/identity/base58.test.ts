import test from 'ava';
import bs58 from 'bs58';
import fc from 'fast-check';
import { decodeBase58, encodeBase58, encodeBase58Fixed } from '../../../src/domain/identity/base58.js';
import { isWalletAddress, walletPublicKey } from '../../../src/domain/identity/wallet-address.js';

const hex = (h: string) => Uint8Array.from(Buffer.from(h, 'hex'));

// Vectors from the Bitcoin Core base58 test suite (src/test/data/base58_encode_decode.json).
const VECTORS: Array<[string, string]> = [
  ['', ''],
  ['61', '2g'],
  ['626262', 'a3gV'],
  ['636363', 'aPEr'],
  ['73696d706c792061206c6f6e6720737472696e67', '2cFupjhnEsSn59qHXstmK2ffpLv2'],
  ['00eb15231dfceb60925886b67d065299925915aeb172c06647', '1NS17iag9jJgTHD1VXjvLCEnZuQ3rJDE9L'],
  ['516b6fcd0f', 'ABnLTmg'],
  ['bf4f89001e670274dd', '3SEo3LWLoPntC'],
  ['572e4794', '3EFU7m'],
  ['ecac89cad93923c02321', 'EJDM8drfXA6uyA'],
  ['10c8511e', 'Rt5zm'],
  ['00000000000000000000', '1111111111'],
];

for (const [bytes, text] of VECTORS) {
  test(`base58 "${text}" ⇄ ${bytes || '(empty)'}`, (t) => {
    t.is(encodeBase58(hex(bytes)), text);
    t.deepEqual(decodeBase58(text), hex(bytes));
  });
}

test('base58 agrees with the bs58 package on random inputs, leading zeros included', (t) => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 64 }), fc.nat(4), (body, zeros) => {
      const bytes = Uint8Array.from([...new Array<number>(zeros).fill(0), ...body]);
      const text = encodeBase58(bytes);
      return text === bs58.encode(bytes) && Buffer.from(decodeBase58(text)!).equals(Buffer.from(bytes));
    }),
  );
  t.pass();
});

test('base58 decoding refuses characters outside the alphabet', (t) => {
  for (const bad of ['0', 'O', 'I', 'l', '+', ' ', 'abc!', 'é']) t.is(decodeBase58(bad), null, bad);
});

test('fixed-width base58 pads with the zero digit and keeps the width', (t) => {
  t.is(encodeBase58Fixed(0, 6), '111111');
  t.is(encodeBase58Fixed(57, 6), '11111z');
  t.is(encodeBase58Fixed(58, 6), '111121');
  t.is(encodeBase58Fixed(0xffffffff, 6).length, 6);
});

const wallet = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const table: Array<[string, string, boolean]> = [
  ['a real address', wallet, true],
  ['the system program (32 zero bytes)', '11111111111111111111111111111111', true],
  ['a mint address', 'EPjFWdd5AufqSSqeM2qofjEy8b7r4hPh8iUBXNNL4nQf', true],
  ['empty', '', false],
  ['too short (31 bytes)', bs58.encode(new Uint8Array(31).fill(9)), false],
  ['too long (33 bytes)', bs58.encode(new Uint8Array(33).fill(9)), false],
  ['a non-canonical spelling (extra leading 1)', '1' + wallet, false],
  ['not base58', wallet.replace('7', '0'), false],
  ['surrounding space', ` ${wallet}`, false],
];
for (const [name, address, ok] of table) {
  test(`wallet address: ${name} → ${ok ? 'accepted' : 'refused'}`, (t) => {
    t.is(isWalletAddress(address), ok);
    if (ok) t.is(walletPublicKey(address)!.length, 32);
  });
}
