import test from 'ava';
import fc from 'fast-check';
import { memberTextReader } from '../../../src/adapters/http/member-text.js';

const envelopeText = memberTextReader('envelope');
const read = (text: string) => envelopeText(text, JSON.parse(text));

test('the text of the only member, exactly as sent, whatever the whitespace', (t) => {
  t.is(read('{"envelope":{"a":1}}'), '{"a":1}');
  t.is(read('{"envelope": {"a": 1, "b": [true, null]}}'), '{"a": 1, "b": [true, null]}');
  t.is(read(' \n{\t"envelope" :\r\n {\n  "a": 1\n}\n } \n'), '{\n  "a": 1\n}');
  t.is(read('{"envelope":[1,2]}'), '[1,2]');
  t.is(read('{"envelope":"text"}'), '"text"');
  t.is(read('{"envelope":null}'), 'null');
});

test('numbers keep their spelling and strings their escapes', (t) => {
  t.is(read('{"envelope":{"n":1e400,"z":-0,"f":1.50,"s":"a\\"b\\n"}}'), '{"n":1e400,"z":-0,"f":1.50,"s":"a\\"b\\n"}');
});

test('no text when the body has more than the member, or it cannot be told cheaply', (t) => {
  t.is(read('{"envelope":{"a":1},"other":2}'), undefined, 'another member');
  t.is(read('{"other":2,"envelope":{"a":1}}'), undefined, 'another member first');
  // JSON.parse keeps the last of two equal keys: the slice would hold both.
  t.is(read('{"envelope":{"a":1},"envelope":{"b":2}}'), undefined, 'the member twice');
  t.is(read('{"\\u0065nvelope":{"a":1}}'), undefined, 'an escaped key');
  t.is(read('{"envelope":{"a":"\\u00e9"}}'), undefined, 'a \\u escape anywhere');
  t.is(read('{"envelope":{"note":"envelope"}}'), undefined, 'the name inside a string');
  t.is(read('{"Envelope":{"a":1}}'), undefined, 'another name');
  t.is(read('{}'), undefined);
  t.is(read('[{"envelope":1}]'), undefined);
  t.is(envelopeText(undefined, { envelope: 1 }), undefined, 'no text');
  t.is(envelopeText('{"envelope":1}', null), undefined);
  t.is(envelopeText('{"envelope":1}', { envelope: 1, other: 2 }), undefined, 'the parsed body has another key');
});

test('names other than letters are refused, as the reasoning needs', (t) => {
  t.throws(() => memberTextReader('a"b'), { message: /name of letters/ });
  t.throws(() => memberTextReader(''), { message: /name of letters/ });
});

/** A body holding `value` as `envelope`, in one of the ways clients write JSON, maybe with more members. */
const bodies = fc
  .record({
    value: fc.jsonValue(),
    indent: fc.constantFrom(undefined, 2, '\t'),
    spaced: fc.boolean(),
    extra: fc.oneof(
      { arbitrary: fc.constant(undefined), weight: 3 },
      { arbitrary: fc.constantFrom('{"envelope":0}', '{"note":1}', '{"\\u0065nvelope":0}'), weight: 1 },
    ),
  })
  .map(({ value, indent, spaced, extra }) => {
    const inner = JSON.stringify(value, null, indent);
    const open = spaced ? '{ "envelope" : ' : '{"envelope":';
    const more = extra === undefined ? '' : `,${extra.slice(1, -1)}`;
    return { inner, text: `${open}${inner}${more}${spaced ? ' }\n' : '}'}`, plain: extra === undefined };
  });

test('whenever a text is given, it parses to exactly the parsed member', (t) => {
  let given = 0;
  fc.assert(
    fc.property(bodies, ({ inner, text, plain }) => {
      const parsed = JSON.parse(text) as { envelope: unknown };
      const slice = envelopeText(text, parsed);
      // A plain body is read unless its value holds what the reader stays away from.
      if (slice === undefined) return !plain || inner.includes('"envelope"') || inner.includes('\\u');
      given++;
      t.deepEqual(JSON.parse(slice), parsed.envelope);
      return text.includes(slice);
    }),
    { numRuns: 2000 },
  );
  t.true(given > 1000, `a text was given for ${given} of 2000 bodies`);
});
