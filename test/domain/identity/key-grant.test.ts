import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { actsFor, checkGrant, holdsScope, KEY_PRESETS, robotRefusal, SCOPES, scopesOf, type RequestedGrant } from '../../../src/domain/identity/key-grant.js';

const NOW = Date.parse('2026-12-01T00:00:00Z');

const accepted: Array<[string, RequestedGrant, { scopes: readonly string[] | null; robotIds: readonly string[] | null; expiresAtMs: number | null }]> = [
  ['nothing asked: every scope, any robot, no expiry', {}, { scopes: null, robotIds: null, expiresAtMs: null }],
  [
    'scopes kept once each, in the order of SCOPES',
    { scopes: ['health:write', 'proofs:write', 'health:write'] },
    { scopes: ['proofs:write', 'health:write'], robotIds: null, expiresAtMs: null },
  ],
  ['robots kept once each, sorted', { robotIds: ['b', 'a', 'b'] }, { scopes: null, robotIds: ['a', 'b'], expiresAtMs: null }],
  ['null robots: any', { robotIds: null }, { scopes: null, robotIds: null, expiresAtMs: null }],
  ['an expiry a millisecond ahead', { expiresAtMs: NOW + 1 }, { scopes: null, robotIds: null, expiresAtMs: NOW + 1 }],
  [
    'a thousand robots',
    { robotIds: Array.from({ length: 1000 }, (_, i) => `r${i}`) },
    { scopes: null, robotIds: Array.from({ length: 1000 }, (_, i) => `r${i}`).sort(), expiresAtMs: null },
  ],
];
for (const [name, asked, grant] of accepted) {
  test(`accepted: ${name}`, (t) => t.deepEqual(checkGrant(asked, NOW), E.right(grant)));
}

const refused: Array<[string, RequestedGrant, 'scopes' | 'robot_ids' | 'expires_at', RegExp]> = [
  ['an unknown scope', { scopes: ['proofs:write', 'admin'] }, 'scopes', /unknown scope "admin"; scopes are proofs:write, proofs:read/],
  ['no scopes', { scopes: [] }, 'scopes', /at least one scope/],
  ['no robots', { robotIds: [] }, 'robot_ids', /at least one robot/],
  ['1,001 robots', { robotIds: Array.from({ length: 1001 }, (_, i) => `r${i}`) }, 'robot_ids', /at most 1000 robots, not 1001/],
  ['an empty robot id', { robotIds: ['a', ''] }, 'robot_ids', /is not a robot id/],
  ['a robot id of 129 characters', { robotIds: ['x'.repeat(129)] }, 'robot_ids', /is not a robot id/],
  ['an expiry now', { expiresAtMs: NOW }, 'expires_at', /in the future/],
  ['an expiry in the past', { expiresAtMs: NOW - 86_400_000 }, 'expires_at', /in the future/],
];
for (const [name, asked, field, detail] of refused) {
  test(`refused: ${name}`, (t) => {
    const result = checkGrant(asked, NOW);
    t.true(E.isLeft(result));
    if (E.isLeft(result)) {
      t.is(result.left.field, field);
      t.regex(result.left.detail, detail);
    }
  });
}

test('a full grant holds every scope and acts for any robot; a narrow one only for its own', (t) => {
  for (const scope of SCOPES) t.true(holdsScope({ scopes: null }, scope));
  t.deepEqual(scopesOf({ scopes: null }), SCOPES);
  t.deepEqual(
    SCOPES.filter((s) => holdsScope({ scopes: KEY_PRESETS.robot }, s)),
    ['proofs:write', 'health:write'],
  );
  t.true(actsFor({ robotIds: null }, 'any'));
  t.true(actsFor({ robotIds: ['arm-1'] }, 'arm-1'));
  t.false(actsFor({ robotIds: ['arm-1'] }, 'arm-10'));
  t.is(robotRefusal(null, 'arm-2'), null);
  t.is(robotRefusal(undefined, null), null);
  t.is(robotRefusal(['arm-1'], 'arm-1'), null);
  t.deepEqual(robotRefusal(['arm-1'], 'arm-2'), { _tag: 'RobotNotAllowed', robotId: 'arm-2' });
  t.deepEqual(robotRefusal(['arm-1'], null), { _tag: 'RobotNotAllowed', robotId: null });
});
