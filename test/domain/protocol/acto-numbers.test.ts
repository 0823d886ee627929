import test from 'ava';
import fc from 'fast-check';
import { actoFloatText, actoNumberText } from '../../../src/domain/protocol/acto-numbers.js';

/** Received text → [ryu's spelling (orjson ≤ 3.11.6), zmij's (orjson ≥ 3.11.7)]; null where orjson has none. */
const CASES: ReadonlyArray<readonly [string, string | null, string | null]> = [
  // Floats with a fraction that JCS writes without one.
  ['56.0', '56.0', '56.0'],
  ['85.0', '85.0', '85.0'],
  ['24.5', '24.5', '24.5'],
  // kk = 16: still fixed, with `.0`; kk = 17: exponent, where the spellings differ.
  ['1000000000000000.0', '1000000000000000.0', '1000000000000000.0'],
  ['9999999999999998.0', '9999999999999998.0', '9999999999999998.0'],
  ['1234567890123456.8', '1234567890123456.8', '1234567890123456.8'],
  ['1e+16', '1e16', '1e+16'],
  ['1e16', '1e16', '1e+16'],
  ['1E16', '1e16', '1e+16'],
  ['10000000000000000.0', '1e16', '1e+16'],
  ['12345678901234567890.0', '1.2345678901234567e19', '1.2345678901234567e+19'],
  ['1.2345678901234568e+17', '1.2345678901234568e17', '1.2345678901234568e+17'],
  ['1e+21', '1e21', '1e+21'],
  // kk = 0 and −4: fixed after `0.`; kk = −5: exponent (JCS switches only below 1e-6).
  ['0.5', '0.5', '0.5'],
  ['0.00001', '0.00001', '0.00001'],
  ['2.5e-05', '0.000025', '0.000025'],
  ['0.000012345', '0.000012345', '0.000012345'],
  ['1e-06', '1e-6', '1e-6'],
  ['2.5e-06', '2.5e-6', '2.5e-6'],
  ['1e-07', '1e-7', '1e-7'],
  // Zero and minus zero, as floats and as ints (Python reads `-0` as the int 0).
  ['0.0', '0.0', '0.0'],
  ['-0.0', '-0.0', '-0.0'],
  ['0e0', '0.0', '0.0'],
  ['-0e5', '-0.0', '-0.0'],
  ['0', '0', '0'],
  ['-0', '0', '0'],
  // The smallest and largest doubles, and what lies beyond them.
  ['5e-324', '5e-324', '5e-324'],
  ['-5e-324', '-5e-324', '-5e-324'],
  ['2.2250738585072014e-308', '2.2250738585072014e-308', '2.2250738585072014e-308'],
  ['1.7976931348623157e+308', '1.7976931348623157e308', '1.7976931348623157e+308'],
  ['-1.7976931348623157e+308', '-1.7976931348623157e308', '-1.7976931348623157e+308'],
  ['1e-400', '0.0', '0.0'],
  ['-1e-400', '-0.0', '-0.0'],
  ['1e400', null, null],
  // Integers: exact digits past 2^53, up to orjson's 64 bits (i64 below zero, u64 above).
  ['12', '12', '12'],
  ['9007199254740993', '9007199254740993', '9007199254740993'],
  ['-9007199254740993', '-9007199254740993', '-9007199254740993'],
  ['18446744073709551615', '18446744073709551615', '18446744073709551615'],
  ['18446744073709551616', null, null],
  ['-9223372036854775808', '-9223372036854775808', '-9223372036854775808'],
  ['-9223372036854775809', null, null],
  ['123456789012345678901234567890', null, null],
];

for (const [text, ryu, plus] of CASES) {
  test(`${text} is written ${ryu} (and ${plus} by orjson ≥ 3.11.7)`, (t) => {
    t.is(actoNumberText(text, 'ryu'), ryu);
    t.is(actoNumberText(text, 'plus'), plus);
  });
}

const finiteDouble = fc.double({ noNaN: true, noDefaultInfinity: true });

test('a float is written with digits that read back as the very same double, as few as Number::toString uses', (t) => {
  fc.assert(
    fc.property(finiteDouble, (x) => {
      const text = actoFloatText(x, 'ryu');
      if (!Object.is(Number(text), x)) return false;
      const digits = (s: string) => s.replace(/^-/, '').replace(/e.*$/, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '') || '0';
      return digits(text) === digits(String(Math.abs(x)).replace(/e.*$/, '')) || x === 0;
    }),
    { numRuns: 20_000 },
  );
  t.pass();
});

test('a float is laid out by where its decimal point falls, as ryu lays it out', (t) => {
  fc.assert(
    fc.property(finiteDouble, (x) => {
      const text = actoFloatText(x, 'ryu');
      const magnitude = Math.abs(x);
      if (magnitude === 0) return text === (Object.is(x, -0) ? '-0.0' : '0.0');
      // Fixed notation from 1e-5 up to (not including) 1e16, exponent notation elsewhere.
      const fixed = magnitude >= 1e-5 && magnitude < 1e16;
      if (fixed) return /^-?\d+\.\d+$/.test(text);
      return /^-?\d(\.\d+)?e-?\d+$/.test(text) && actoFloatText(x, 'plus') === text.replace(/e(?=\d)/, 'e+');
    }),
    { numRuns: 20_000 },
  );
  t.pass();
});
