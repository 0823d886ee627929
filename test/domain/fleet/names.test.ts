import test from 'ava';
import { normalizeDescription, normalizeName, describeInvalidText } from '../../../src/domain/fleet/names.js';

const names: Array<[string, string | { problem: string }]> = [
  ['Arm 1', 'Arm 1'],
  ['  padded\t', 'padded'],
  ['x', 'x'],
  ['a'.repeat(100), 'a'.repeat(100)],
  ['  ' + 'a'.repeat(100) + '  ', 'a'.repeat(100)],
  ['🤖'.repeat(100), '🤖'.repeat(100)],
  ['Zürich ✓', 'Zürich ✓'],
  ['', { problem: 'empty' }],
  ['   \n\t ', { problem: 'empty' }],
  ['a'.repeat(101), { problem: 'too_long' }],
  ['🤖'.repeat(101), { problem: 'too_long' }],
  ['two\nlines', { problem: 'control_characters' }],
  ['bell\u0007', { problem: 'control_characters' }],
  ['c1\u0085x', { problem: 'control_characters' }],
];

for (const [i, [raw, expected]] of names.entries()) {
  test(`name #${i} ${JSON.stringify(raw).slice(0, 30)} (${[...raw].length} chars)`, (t) => {
    const result = normalizeName(raw);
    if (typeof expected === 'string') t.deepEqual(result, { _tag: 'Right', right: expected });
    else t.like(result, { _tag: 'Left', left: { _tag: 'InvalidText', field: 'name', ...expected } });
  });
}

test('descriptions: optional, trimmed, empty is null, lines allowed, 500 max', (t) => {
  t.deepEqual(normalizeDescription(undefined), { _tag: 'Right', right: null });
  t.deepEqual(normalizeDescription(null), { _tag: 'Right', right: null });
  t.deepEqual(normalizeDescription('   '), { _tag: 'Right', right: null });
  t.deepEqual(normalizeDescription(' north\r\nsite '), { _tag: 'Right', right: 'north\nsite' });
  t.like(normalizeDescription('x'.repeat(501)), { _tag: 'Left', left: { problem: 'too_long', max: 500 } });
  t.like(normalizeDescription('tab\u001b[31m'), { _tag: 'Left', left: { problem: 'control_characters' } });
});

test('problems read as sentences naming the field', (t) => {
  t.is(describeInvalidText({ _tag: 'InvalidText', field: 'name', problem: 'too_long', max: 100 }), 'name must be at most 100 characters after trimming');
  t.is(describeInvalidText({ _tag: 'InvalidText', field: 'name', problem: 'empty', max: 100 }), 'name must not be empty or only whitespace');
});
