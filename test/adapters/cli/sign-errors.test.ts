import test from 'ava';
import { cli, EVENTS, jsonl, keyJson, tempDir, VECTOR_SEED, writeFiles } from './harness.js';

const KEY = keyJson({ private_key_b64: Buffer.from(VECTOR_SEED).toString('base64') });
const good = JSON.stringify(EVENTS[0]);
const nest = (depth: number): unknown => (depth === 0 ? 1 : { n: nest(depth - 1) });

/** [name, telemetry file, its text, extra options, expected stderr]; every case exits 2. */
const cases: Array<[string, string, string, string[], RegExp]> = [
  ['a line that is not JSON, naming the line', 'events.jsonl', `${good}\n\n{"ts": oops}\n`, [], /^proof-registry: events\.jsonl line 3: not valid JSON \(/],
  [
    'a bad ts, naming the line',
    'events.jsonl',
    `${good}\n${JSON.stringify({ ...EVENTS[0], ts: '2026-11-20 10:00' })}\n`,
    [],
    /events\.jsonl line 2: ts must be an RFC 3339 date-time with offset \(got "2026-11-20 10:00"\)/,
  ],
  ['a ts that is not a string', 'events.jsonl', `${JSON.stringify({ ...EVENTS[0], ts: 17 })}\n`, [], /events\.jsonl line 1: ts must be a string/],
  [
    'an empty topic, naming the index',
    'events.json',
    JSON.stringify([EVENTS[0], { ...EVENTS[0], topic: '' }]),
    [],
    /events\.json events\[1\]: topic must be a non-empty string/,
  ],
  [
    'data that is an array',
    'events.json',
    JSON.stringify({ events: [{ ...EVENTS[0], data: [1] }] }),
    [],
    /events\.json events\[0\]: data must be a JSON object/,
  ],
  ['an event that is not an object', 'events.jsonl', '[1, 2]\n', [], /events\.jsonl line 1: an event must be a JSON object/],
  ['a .json file that is not JSON', 'events.json', jsonl(EVENTS), [], /events\.json: not valid JSON \(/],
  ['a .json object without events', 'events.json', '{"evts": []}', [], /events\.json: expected an array of events or an object with an "events" array/],
  ['--meta that is not JSON', 'events.jsonl', jsonl(EVENTS), ['--meta', '{site:1}'], /--meta: not valid JSON/],
  ['--meta that is not an object', 'events.jsonl', jsonl(EVENTS), ['--meta', '["a"]'], /--meta must be a JSON object/],
  ['--created-at without an offset', 'events.jsonl', jsonl(EVENTS), ['--created-at', '2026-11-20T10:00:00'], /--created-at must be an RFC 3339 date-time/],
  [
    'a lone surrogate, naming the event',
    'events.jsonl',
    `${good}\n${JSON.stringify({ ...EVENTS[0], data: { s: 'x' } }).replace('"x"', '"\\ud800"')}\n`,
    [],
    /cannot sign: events\[1\]\.data\.s .*lone surrogate/,
  ],
  [
    'a number beyond a double, naming the event',
    'events.jsonl',
    `${good}\n${JSON.stringify({ ...EVENTS[0], data: { big: 1 } }).replace('"big":1', '"big":1e400')}\n`,
    [],
    /cannot sign: events\[1\]\.data\.big is a number beyond the range/,
  ],
  [
    'telemetry nested thousands of levels deep',
    'events.jsonl',
    `${'{"a":'.repeat(3000)}1${'}'.repeat(3000)}\n`.replace(/^/, `{"ts":"2026-11-20T10:00:00Z","topic":"t","data":`).replace(/\n$/, '}\n'),
    [],
    /cannot sign: telemetry is nested too deep; an envelope may be 32 levels deep/,
  ],
  [
    'telemetry nested past the protocol limit',
    'events.jsonl',
    `${JSON.stringify({ ...EVENTS[0], data: nest(30) })}\n`,
    [],
    /cannot sign: the envelope would not verify: envelope is nested \d+ levels deep; the limit is 32/,
  ],
];

for (const [name, file, text, extra, message] of cases) {
  test(`sign rejects ${name} (exit 2)`, async (t) => {
    const dir = tempDir(t);
    writeFiles(dir, { 'key.json': KEY, [file]: text });
    const r = await cli(['sign', '--key', 'key.json', '--task', 'T', ...extra, file], dir);
    t.is(r.code, 2, r.stdout);
    t.is(r.stdout, '');
    t.regex(r.stderr, message);
  });
}

test('a message that quotes input with line breaks is still one line', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'key.json': KEY, 'events.json': '[\n  {"ts": oops\n]\n' });
  const r = await cli(['sign', '--key', 'key.json', '--task', 'T', 'events.json'], dir);
  t.is(r.code, 2);
  t.regex(r.stderr, /^proof-registry: events\.json: not valid JSON \(.*\)\n$/);
  t.is(r.stderr.split('\n').length, 2);
});

test('sign names a missing telemetry file (exit 2)', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'key.json': KEY });
  const r = await cli(['sign', '--key', 'key.json', '--task', 'T', 'nope.jsonl'], dir);
  t.is(r.code, 2);
  t.is(r.stderr, 'proof-registry: nope.jsonl: no such file\n');
});

test('sign requires --key, --task and one telemetry argument', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'key.json': KEY, 'e.jsonl': jsonl(EVENTS) });
  const noTask = await cli(['sign', '--key', 'key.json', 'e.jsonl'], dir);
  t.is(noTask.code, 2);
  t.is(noTask.stderr, 'proof-registry: --task is required (see --help)\n');
  const noKey = await cli(['sign', '--task', 'T', 'e.jsonl'], dir);
  t.is(noKey.code, 2);
  t.regex(noKey.stderr, /--key is required/);
  const noInput = await cli(['sign', '--key', 'key.json', '--task', 'T'], dir);
  t.is(noInput.code, 2);
  t.regex(noInput.stderr, /missing <telemetry> file/);
  const two = await cli(['sign', '--key', 'key.json', '--task', 'T', 'e.jsonl', 'e.jsonl'], dir);
  t.is(two.code, 2);
  t.regex(two.stderr, /unexpected argument "e\.jsonl"/);
});
