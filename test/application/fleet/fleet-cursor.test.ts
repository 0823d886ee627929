import test from 'ava';
import fc from 'fast-check';
import { decodeFleetCursor, encodeFleetCursor } from '../../../src/application/fleet/fleet-cursor.js';

test('any position comes back from its cursor, U+FFFD and emoji included', (t) => {
  for (const position of ['\ufffd', '\ufffdz', 'arm-1', '🤖 arm', 'ä\u0301']) {
    t.is(decodeFleetCursor('group', encodeFleetCursor('group', position)), position);
    t.is(decodeFleetCursor('device', encodeFleetCursor('device', position)), position);
  }
  fc.assert(
    fc.property(
      fc.string({ unit: 'grapheme', minLength: 1, maxLength: 100 }),
      (position) => decodeFleetCursor('device', encodeFleetCursor('device', position)) === position,
    ),
  );
});

test('a cursor of the other list, or bytes that are not UTF-8, is not one we issued', (t) => {
  t.is(decodeFleetCursor('device', encodeFleetCursor('group', 'a')), null);
  t.is(decodeFleetCursor('group', Buffer.from([0x67, 0x3a, 0xff, 0x61]).toString('base64url')), null);
  t.is(decodeFleetCursor('group', Buffer.from('g:', 'utf8').toString('base64url')), null);
  t.is(decodeFleetCursor('group', 'not base64!'), null);
});
