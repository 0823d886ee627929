import test from 'ava';
import { describeEvent, fmtSpan, lineText } from '../../dashboard/src/event-lines.js';
import type { RegistryEvent } from '../../dashboard/src/types.js';

// Each event of the Activity feed as the line a person reads.
const at = '2026-11-20T10:00:00.000Z';
const event = (type: RegistryEvent['type'], data: Record<string, unknown>, timestamp = at): RegistryEvent => ({
  id: 'evt_0000000000000001',
  type,
  timestamp,
  wallet: 'W',
  data,
});
const proofId = '7621ab3f'.padEnd(64, '0');

const cases: Array<[string, RegistryEvent, string, string?]> = [
  [
    'accepted, with its device and leaf',
    event('proof.accepted', { proof_id: proofId, robot_id: 'arm-07', log_index: 12, task_id: 'pick-1' }),
    'Proof 7621ab3f… accepted from arm-07 (leaf 12)',
    'Task pick-1',
  ],
  [
    'accepted, no robot, no leaf',
    event('proof.accepted', { proof_id: proofId, robot_id: null, log_index: null, task_id: 't' }),
    'Proof 7621ab3f… accepted (no robot_id)',
    'Task t',
  ],
  [
    'refused at a check',
    event('proof.rejected', { check: 'signature', code: 'signature_invalid', detail: 'signature does not verify', robot_id: 'arm-07', task_id: 'x' }),
    'Submission refused: signature check failed (from arm-07)',
    'signature does not verify · task x',
  ],
  [
    'refused after verifying',
    event('proof.rejected', { check: null, code: 'unstorable_proof', detail: 'already stored differently', robot_id: null, task_id: null }),
    'Submission refused: it could not be stored',
    'already stored differently',
  ],
  [
    'a new device',
    event('device.status_changed', { device_id: 'arm-07', from: null, to: 'online', why: 'proof', last_seen_at: at }),
    'New device arm-07 (online)',
  ],
  [
    'gone silent',
    event('device.status_changed', { device_id: 'arm-07', from: 'warning', to: 'offline', why: 'silence', last_seen_at: '2026-11-20T09:00:00.000Z' }),
    'arm-07 went offline (silent for 1 h)',
  ],
  [
    'back online',
    event('device.status_changed', { device_id: 'arm-07', from: 'offline', to: 'online', why: 'proof', last_seen_at: at }),
    'arm-07 is back online (was offline, with a new proof)',
  ],
  [
    'worse after a report',
    event('device.status_changed', { device_id: 'arm-07', from: 'online', to: 'degraded', why: 'health_report', last_seen_at: at }),
    'arm-07 is now degraded (was online, after a health report)',
  ],
  [
    'a key made',
    event('key.created', { key_id: 'k', name: 'line robots', prefix: 'pr_live_ab', created_at: at }),
    'API key “line robots” created (pr_live_ab…)',
  ],
  [
    'a key disabled',
    event('key.updated', { key_id: 'k', name: 'line robots', prefix: 'pr_live_ab', enabled: false, changed: ['enabled'] }),
    'API key “line robots” disabled (pr_live_ab…)',
  ],
  [
    'a key enabled',
    event('key.updated', { key_id: 'k', name: 'line robots', prefix: 'pr_live_ab', enabled: true, changed: ['enabled'] }),
    'API key “line robots” enabled (pr_live_ab…)',
  ],
  [
    'a key renamed',
    event('key.updated', { key_id: 'k', name: 'arm keys', prefix: 'pr_live_ab', enabled: true, changed: ['name'] }),
    'API key “arm keys” renamed (pr_live_ab…)',
  ],
  ['a key deleted', event('key.deleted', { key_id: 'k', name: 'line robots', prefix: 'pr_live_ab' }), 'API key “line robots” deleted (pr_live_ab…)'],
];

for (const [name, e, text, detail] of cases) {
  test(`${name}: “${text}”`, (t) => {
    const line = describeEvent(e);
    t.is(lineText(line), text);
    t.is(line.detail || undefined, detail);
  });
}

test('links go to the proof and the device, the full proof id in the title; a device id is text, never markup', (t) => {
  const line = describeEvent(event('proof.accepted', { proof_id: proofId, robot_id: '<b>x</b>/1', log_index: 1, task_id: 't' }));
  const links = line.parts.filter((p) => typeof p !== 'string');
  t.deepEqual(links, [
    { text: '7621ab3f…', href: `proofs/${proofId}`, title: proofId },
    { text: '<b>x</b>/1', href: 'fleet/devices/%3Cb%3Ex%3C%2Fb%3E%2F1' },
  ]);
});

test('tones: accepted good, refused and offline bad, a worse status a warning', (t) => {
  t.is(describeEvent(cases[0]![1]).tone, 'good');
  t.is(describeEvent(cases[2]![1]).tone, 'bad');
  t.is(describeEvent(cases[5]![1]).tone, 'bad');
  t.is(describeEvent(cases[7]![1]).tone, 'warn');
});

test('spans: seconds, minutes, hours, days, floored', (t) => {
  t.deepEqual(
    [fmtSpan(42_000), fmtSpan(11 * 60_000 + 59_000), fmtSpan(3_600_000), fmtSpan(2.5 * 86_400_000), fmtSpan(-5)],
    ['42 s', '11 min', '1 h', '2 d', '0 s'],
  );
});
