import test from 'ava';
import {
  addTokenAmounts,
  formatTokenAmount,
  meetsMinimum,
  numberToTokenAmount,
  parseTokenAmount,
  toUiAmount,
} from '../../../src/domain/identity/token-amount.js';

const parse: Array<[string, { raw: bigint; decimals: number } | null]> = [
  ['50000', { raw: 50000n, decimals: 0 }],
  ['12.5', { raw: 125n, decimals: 1 }],
  ['0.000000001', { raw: 1n, decimals: 9 }],
  [' 7 ', { raw: 7n, decimals: 0 }],
  ['-1', null],
  ['1e3', null],
  ['1.', null],
  ['.5', null],
  ['', null],
  ['abc', null],
  ['NaN', null],
];
for (const [text, expected] of parse) {
  test(`parseTokenAmount(${JSON.stringify(text)})`, (t) => t.deepEqual(parseTokenAmount(text), expected));
}

test('formatting drops trailing zeros and keeps leading ones', (t) => {
  t.is(formatTokenAmount({ raw: 5_000_000_000_000n, decimals: 8 }), '50000');
  t.is(formatTokenAmount({ raw: 1250n, decimals: 2 }), '12.5');
  t.is(formatTokenAmount({ raw: 5n, decimals: 6 }), '0.000005');
  t.is(formatTokenAmount({ raw: 0n, decimals: 9 }), '0');
});

test('sums are exact at the finer precision', (t) => {
  const sum = addTokenAmounts({ raw: 1n, decimals: 1 }, { raw: 2n, decimals: 1 });
  t.is(formatTokenAmount(sum), '0.3'); // 0.1 + 0.2 in floats is 0.30000000000000004
  t.is(toUiAmount(addTokenAmounts({ raw: 4999900000n, decimals: 5 }, { raw: 100000n, decimals: 5 })), 50000);
});

const gate: Array<[string, { raw: bigint; decimals: number }, number, boolean]> = [
  ['49,999 of 50,000', { raw: 49_999n, decimals: 0 }, 50_000, false],
  ['50,000 of 50,000', { raw: 50_000n, decimals: 0 }, 50_000, true],
  ['50,001 of 50,000', { raw: 50_001n, decimals: 0 }, 50_000, true],
  ['one base unit short, 9 decimals', { raw: 49_999_999_999_999n, decimals: 9 }, 50_000, false],
  ['exactly, 9 decimals', { raw: 50_000_000_000_000n, decimals: 9 }, 50_000, true],
  ['fractional minimum met', { raw: 1n, decimals: 1 }, 0.1, true],
  ['fractional minimum missed by less than float error', { raw: 99_999_999_999_999_999n, decimals: 18 }, 0.1, false],
  ['zero minimum', { raw: 0n, decimals: 0 }, 0, true],
  ['NaN minimum admits nobody', { raw: 10n ** 30n, decimals: 0 }, Number.NaN, false],
  ['infinite minimum admits nobody', { raw: 10n ** 30n, decimals: 0 }, Number.POSITIVE_INFINITY, false],
];
for (const [name, balance, minimum, expected] of gate) {
  test(`meetsMinimum: ${name}`, (t) => t.is(meetsMinimum(balance, minimum), expected));
}

test('numbers become the decimal they print as', (t) => {
  t.is(formatTokenAmount(numberToTokenAmount(0.1)!), '0.1');
  t.is(formatTokenAmount(numberToTokenAmount(1e-7)!), '0.0000001');
  t.is(formatTokenAmount(numberToTokenAmount(1e21)!), '1000000000000000000000');
  t.is(numberToTokenAmount(-1), null);
});
