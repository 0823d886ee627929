import test from 'ava';
import fc from 'fast-check';
import assert from 'node:assert/strict';
import { parseRfc3339, toRfc3339, toUtcRfc3339 } from '../../../src/domain/protocol/datetime.js';
import { legacyParseRfc3339 } from './legacy-helpers.js';

/** The charCode parser against the regex one it replaced: the same number (or null) for any text. */

const same = (text: string): void => {
  const expected = legacyParseRfc3339(text);
  const actual = parseRfc3339(text);
  if (!Object.is(actual, expected)) assert.fail(`${JSON.stringify(text)}: ${actual} instead of ${expected}`);
};

// ---- Arbitraries -------------------------------------------------------------------------

const digits = (n: number, width: number): string => String(n).padStart(width, '0');

/** A number written with a width that is usually right and sometimes one off. */
const field = (min: number, max: number, width: number) =>
  fc
    .tuple(fc.integer({ min, max }), fc.constantFrom(width, width, width, width, width - 1, width + 1))
    .map(([n, w]) => digits(n, Math.max(w, 0)).slice(-Math.max(w, 1)));

/** Fields around and past their limits, every separator and offset form, good or bad. */
const nearValid = fc
  .record({
    year: fc.oneof(field(0, 9999, 4), field(1896, 2404, 4), fc.constantFrom('0000', '0099', '0100', '1900', '2000', '2100', '9999')),
    dash1: fc.constantFrom('-', '-', '-', '/', ''),
    month: field(0, 13, 2),
    dash2: fc.constantFrom('-', '-', '-', '.'),
    day: fc.oneof(field(0, 32, 2), fc.constantFrom('28', '29', '30', '31')),
    separator: fc.constantFrom('T', 't', ' ', 'T', '_', 'TT', ''),
    hour: field(0, 25, 2),
    colon1: fc.constantFrom(':', ':', ':', '.'),
    minute: field(0, 61, 2),
    colon2: fc.constantFrom(':', ':', ':', ''),
    second: fc.oneof(field(0, 61, 2), fc.constant('60')),
    fraction: fc.oneof(fc.constant(''), fc.stringMatching(/^\.\d{0,11}$/), fc.constantFrom('.', '.0', '.999999999', '.9999999999', ',5')),
    offset: fc.oneof(
      fc.constantFrom('Z', 'z', '', 'ZZ', 'UTC', '+00:00', '-00:00', '+0000', '+00', '+24:00', '+23:59', '-23:59', '+00:60', '+1:00'),
      fc.tuple(fc.constantFrom('+', '-'), field(0, 25, 2), fc.constantFrom(':', ':', ''), field(0, 61, 2)).map((p) => p.join('')),
    ),
    tail: fc.constantFrom('', '', '', '', ' ', '\n', 'Z', '0'),
  })
  .map(
    (d) =>
      `${d.year}${d.dash1}${d.month}${d.dash2}${d.day}${d.separator}${d.hour}${d.colon1}${d.minute}${d.colon2}${d.second}${d.fraction}${d.offset}${d.tail}`,
  );

/** Valid date-times in every accepted form (day up to 31: some do not exist in their month). */
const valid = fc
  .record({
    year: fc.integer({ min: 0, max: 9999 }),
    month: fc.integer({ min: 1, max: 12 }),
    day: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 60 }),
    separator: fc.constantFrom('T', 't', ' '),
    fraction: fc.option(fc.stringMatching(/^\.\d{1,20}$/), { nil: '' }),
    offset: fc.oneof(
      fc.constantFrom('Z', 'z'),
      fc
        .tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
        .map(([s, h, m]) => `${s}${digits(h, 2)}:${digits(m, 2)}`),
    ),
  })
  .map(
    (d) =>
      `${digits(d.year, 4)}-${digits(d.month, 2)}-${digits(d.day, 2)}${d.separator}${digits(d.hour, 2)}:${digits(d.minute, 2)}:${digits(d.second, 2)}${d.fraction}${d.offset}`,
  );

/** One edit of a valid date-time: a character replaced, removed or added. */
const EDIT_CHARS = ['0', '9', '-', ':', '.', '+', 'T', 'Z', ' ', 'a', '\u0660', '\uff13', '\u0000', '😀'];
const edited = fc.tuple(valid, fc.constantFrom('replace', 'remove', 'insert'), fc.nat(), fc.constantFrom(...EDIT_CHARS)).map(([text, how, at, c]) => {
  const i = at % (text.length + 1);
  if (how === 'replace') return text.slice(0, i) + c + text.slice(i + 1);
  if (how === 'remove') return text.slice(0, i) + text.slice(i + 1);
  return text.slice(0, i) + c + text.slice(i);
});

/** Any text from the characters a date-time is made of. */
const soup = fc
  .array(fc.constantFrom('0', '1', '2', '3', '5', '9', '-', ':', '.', '+', 'T', 't', 'Z', 'z', ' '), { minLength: 15, maxLength: 40 })
  .map((chars) => chars.join(''));

// ---- Differential properties -------------------------------------------------------------

test('valid date-times parse to what the regex parser gave', (t) => {
  fc.assert(
    fc.property(valid, (text) => {
      same(text);
      if (legacyParseRfc3339(text) === null) assert.match(text, /-(02-(29|3.)|(04|06|09|11)-31)/); // only days past the month's end fail
    }),
    { numRuns: 20_000 },
  );
  t.pass();
});

test('near-valid text parses (or fails) as the regex parser did', (t) => {
  fc.assert(fc.property(nearValid, same), { numRuns: 20_000 });
  t.pass();
});

test('a valid date-time with one edit parses (or fails) as the regex parser did', (t) => {
  fc.assert(fc.property(edited, same), { numRuns: 20_000 });
  t.pass();
});

test('any text of date-time characters, or any text at all, parses (or fails) as before', (t) => {
  fc.assert(fc.property(soup, same), { numRuns: 10_000 });
  fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 40 }), same), { numRuns: 5_000 });
  t.pass();
});

test('every day of years 0–9999, and days past each month, give what Date.UTC gives', (t) => {
  let checked = 0;
  for (let year = 0; year <= 9999; year++) {
    for (let month = 1; month <= 12; month++) {
      for (const day of [1, 28, 29, 30, 31]) {
        same(`${digits(year, 4)}-${digits(month, 2)}-${digits(day, 2)}T${digits(year % 24, 2)}:${digits(month * 4, 2)}:${digits(day, 2)}Z`);
        checked++;
      }
    }
  }
  t.is(checked, 600_000);
});

test('every fraction of 1 to 4 digits, and many of 5 to 9, truncates as before', (t) => {
  for (let width = 1; width <= 4; width++) {
    for (let f = 0; f < 10 ** width; f++) same(`2026-11-20T10:00:00.${digits(f, width)}Z`);
  }
  fc.assert(
    fc.property(fc.stringMatching(/^\d{5,9}$/), (f) => same(`1999-12-31t23:59:59.${f}-01:30`)),
    { numRuns: 20_000 },
  );
  t.pass();
});

// ---- Unit cases --------------------------------------------------------------------------

const at = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): number => Date.UTC(y, mo - 1, d, h, mi, s, ms);

const CASES: Array<[string, number | null]> = [
  ['2026-11-20T10:00:00Z', at(2026, 11, 20, 10)],
  ['2026-11-20t10:00:00z', at(2026, 11, 20, 10)],
  ['2026-11-20 10:00:00Z', at(2026, 11, 20, 10)],
  ['2026-11-20T10:00:00.1Z', at(2026, 11, 20, 10, 0, 0, 100)],
  ['2026-11-20T10:00:00.9999Z', at(2026, 11, 20, 10, 0, 0, 999)], // truncated, not rounded
  ['2026-11-20T10:00:00.123456789Z', at(2026, 11, 20, 10, 0, 0, 123)],
  ['2026-11-20T10:00:00.0005Z', at(2026, 11, 20, 10)],
  ['2026-11-20T10:00:00.1234567890Z', at(2026, 11, 20, 10, 0, 0, 123)], // RFC 3339 sets no limit on the digits
  ['2026-11-20T10:00:00.99999999999999999999+01:00', at(2026, 11, 20, 9, 0, 0, 999)], // still truncated, never rounded up
  ['2026-11-20T10:00:00.000000000000000000000000000001Z', at(2026, 11, 20, 10)],
  ['2026-11-20T10:00:00.Z', null],
  ['2026-11-20T10:00:00+01:30', at(2026, 11, 20, 8, 30)],
  ['2026-11-20T10:00:00-23:59', at(2026, 11, 21, 9, 59)],
  ['2026-11-20T10:00:00-00:00', at(2026, 11, 20, 10)],
  ['2026-11-20T10:00:00+24:00', null],
  ['2026-11-20T10:00:00+00:60', null],
  ['2026-11-20T10:00:00+0100', null],
  ['2026-11-20T10:00:00', null], // no offset
  ['2016-12-31T23:59:60Z', at(2016, 12, 31, 23, 59, 59, 999)], // a leap second is the minute's last ms
  ['2016-12-31T23:59:60.5Z', at(2016, 12, 31, 23, 59, 59, 999)],
  ['2016-06-15T12:30:60+02:00', at(2016, 6, 15, 10, 30, 59, 999)], // accepted at any minute
  ['2016-12-31T23:59:61Z', null],
  ['2026-11-20T24:00:00Z', null],
  ['2026-11-20T10:60:00Z', null],
  ['2024-02-29T00:00:00Z', at(2024, 2, 29)],
  ['2000-02-29T00:00:00Z', at(2000, 2, 29)],
  ['2023-02-29T00:00:00Z', null],
  ['1900-02-29T00:00:00Z', null],
  ['2026-04-31T00:00:00Z', null],
  ['2026-00-10T00:00:00Z', null],
  ['2026-13-10T00:00:00Z', null],
  ['2026-01-00T00:00:00Z', null],
  ['2026-01-32T00:00:00Z', null],
  ['0050-06-01T00:00:00Z', Date.parse('0050-06-01T00:00:00Z')], // years 0–99 are not 1900–1999, as Date.UTC has them
  ['0000-02-29T00:00:00Z', Date.parse('0000-02-29T00:00:00Z')], // year 0 is a leap year
  ['0000-01-01T00:00:00Z', -62_167_219_200_000],
  ['0099-12-31T23:59:59.999Z', Date.parse('0100-01-01T00:00:00Z') - 1],
  ['0100-01-01T00:00:00Z', Date.parse('0100-01-01T00:00:00Z')],
  ['9999-12-31T23:59:59.999-23:59', Date.parse('9999-12-31T23:59:59.999Z') + (23 * 60 + 59) * 60_000],
  ['1969-12-31T23:59:59.999Z', -1],
  ['1970-01-01T00:00:00Z', 0],
  ['1970-01-01T01:00:00+01:00', 0],
  [' 2026-11-20T10:00:00Z', null],
  ['2026-11-20T10:00:00Z\n', null],
  ['2026-11-20T10:00:00ZZ', null],
  ['2026-11-20_10:00:00Z', null],
  ['２026-11-20T10:00:00Z', null], // a full-width digit
  ['2026-11-20T10:00:0\u0660Z', null], // an Arabic-Indic digit
  ['26-11-20T10:00:00Z', null],
  ['+2026-11-20T10:00:00Z', null],
  ['', null],
];

for (const [text, expected] of CASES) {
  test(`parseRfc3339(${JSON.stringify(text)}) is ${expected}`, (t) => {
    t.is(legacyParseRfc3339(text), expected, 'the reference itself');
    t.is(parseRfc3339(text), expected);
  });
}

test('-00:00 and Z give +0, never -0', (t) => {
  t.true(Object.is(parseRfc3339('1970-01-01T00:00:00-00:00'), 0));
  t.true(Object.is(parseRfc3339('1970-01-01T00:00:00Z'), 0));
});

test('toUtcRfc3339 applies the offset and keeps every other digit as written', (t) => {
  const cases: Array<[string, string]> = [
    ['2026-11-20T12:00:00+02:00', '2026-11-20T10:00:00Z'],
    ['2026-11-20T12:00:00.123456789+02:00', '2026-11-20T10:00:00.123456789Z'],
    ['2026-11-20T12:00:00.123456789012+02:00', '2026-11-20T10:00:00.123456789012Z'], // every digit kept, past the ninth too
    ['2026-11-20T01:30:00+05:45', '2026-11-19T19:45:00Z'],
    ['2026-12-31T23:00:00-01:30', '2027-01-01T00:30:00Z'],
    ['2024-03-01T00:10:00+00:20', '2024-02-29T23:50:00Z'],
    ['2026-11-20t10:00:00z', '2026-11-20T10:00:00Z'],
    ['2026-11-20 10:00:00.5Z', '2026-11-20T10:00:00.5Z'],
    ['2026-11-20T10:00:00-00:00', '2026-11-20T10:00:00Z'],
    ['2016-12-31T23:59:60.25Z', '2016-12-31T23:59:60.25Z'],
    ['2017-01-01T00:59:60+01:00', '2016-12-31T23:59:60Z'],
    ['0050-01-01T00:00:00-01:00', '0050-01-01T01:00:00Z'],
    // Outside 0000–9999 after the shift: kept as written. Not RFC 3339: unchanged.
    ['0000-01-01T00:00:00+01:00', '0000-01-01T00:00:00+01:00'],
    ['9999-12-31T23:30:00-01:00', '9999-12-31T23:30:00-01:00'],
    ['2026-11-20T10:00:00', '2026-11-20T10:00:00'],
    ['yesterday', 'yesterday'],
  ];
  for (const [signed, utc] of cases) t.is(toUtcRfc3339(signed), utc, signed);
});

test('toUtcRfc3339 names the same instant, in UTC, for any date-time', (t) => {
  const two = (n: number) => String(n).padStart(2, '0');
  const dateTime = fc
    .record({
      ms: fc.integer({ min: Date.UTC(1000, 0, 1), max: Date.UTC(9000, 0, 1) }),
      fraction: fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined }),
      offset: fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 }),
    })
    .map(({ ms, fraction, offset }) => {
      const local = new Date(ms + offset * 60_000).toISOString().slice(0, 19);
      const sign = offset < 0 ? '-' : '+';
      const text = `${local}${fraction === undefined ? '' : `.${fraction}`}${sign}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
      return text;
    });
  fc.assert(
    fc.property(dateTime, (text) => {
      const utc = toUtcRfc3339(text);
      assert.match(utc, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/);
      assert.equal(parseRfc3339(utc), parseRfc3339(text));
      assert.equal(utc.slice(19, -1), text.slice(19, -6));
    }),
    { numRuns: 2000 },
  );
  t.pass();
});

test('toRfc3339 writes UTC, and an instant past year 9999 in UTC with the offset that keeps it in 9999', (t) => {
  t.is(toRfc3339(Date.parse('2026-11-20T10:00:00.250Z')), '2026-11-20T10:00:00.250Z');
  const late = parseRfc3339('9999-12-31T23:59:59-23:59')!;
  t.is(toRfc3339(late), '9999-12-31T23:59:59.000-23:59');
  t.is(parseRfc3339(toRfc3339(late)), late);
  const beforeYearZero = new Date('0000-01-01T00:00:00Z').getTime() - 3_600_000;
  t.is(toRfc3339(beforeYearZero), '0000-01-01T22:59:00.000+23:59');
  t.is(toRfc3339(0), '1970-01-01T00:00:00.000Z');
});
