import test, { type ExecutionContext } from 'ava';
import { canonicalText } from '../../../src/domain/protocol/canonical.js';
import { parseRfc3339 } from '../../../src/domain/protocol/datetime.js';
import type { ProofEnvelope } from '../../../src/domain/protocol/envelope.js';
import { proofVectors } from '../../support/fixtures.js';
import { cli, EVENTS, jsonl, keyJson, tempDir, VECTOR_SEED, writeFiles } from './harness.js';

const KEY = keyJson({ private_key_b64: Buffer.from(VECTOR_SEED).toString('base64') });
const CREATED_AT = '2026-11-20T10:00:00Z';

/** Signs `input` (a file written into a temp dir, or stdin for `-`), then verifies the output. */
async function roundTrip(t: ExecutionContext, input: { file: string; text: string }) {
  const dir = tempDir(t);
  writeFiles(dir, { 'key.json': KEY, ...(input.file === '-' ? {} : { [input.file]: input.text }) });
  const signed = await cli(['sign', '--key', 'key.json', '--task', 'task-1', '--created-at', CREATED_AT, input.file], dir, input.text);
  t.is(signed.code, 0, signed.stderr);
  t.is(signed.stderr, '');
  const envelope = JSON.parse(signed.stdout) as ProofEnvelope;
  t.deepEqual(envelope.payload.telemetry_normalized.events, EVENTS as unknown as ProofEnvelope['payload']['telemetry_normalized']['events']);
  writeFiles(dir, { 'envelope.json': signed.stdout });
  const verified = await cli(['verify', 'envelope.json'], dir);
  t.is(verified.code, 0, verified.stdout);
  t.true(verified.stdout.startsWith(`valid  proof_id ${envelope.payload.payload_hash}\n`));
  return envelope;
}

const inputs: Array<[string, string, string]> = [
  ['a JSONL file', 'events.jsonl', jsonl(EVENTS)],
  ['a JSONL file with CRLF and blank lines', 'events.jsonl', `\r\n${jsonl(EVENTS).replace(/\n/g, '\r\n\r\n')}`],
  ['a JSON array file', 'events.json', JSON.stringify(EVENTS, null, 2)],
  ['a JSON {events} file', 'events.json', JSON.stringify({ events: EVENTS })],
  ['a file of another extension holding JSONL', 'events.log', jsonl(EVENTS)],
  ['JSONL on stdin', '-', jsonl(EVENTS)],
  ['a JSON array on stdin', '-', JSON.stringify(EVENTS)],
  ['a JSON {events} object on stdin', '-', JSON.stringify({ events: EVENTS }, null, 2)],
];

for (const [name, file, text] of inputs) {
  test(`sign → verify round trip from ${name}`, async (t) => {
    await roundTrip(t, { file, text });
  });
}

test('a one-line JSONL on stdin is one event, not a JSON document', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'key.json': KEY });
  const r = await cli(['sign', '--key', 'key.json', '--task', 'x', '-'], dir, JSON.stringify(EVENTS[0]));
  t.is(r.code, 0, r.stderr);
  t.deepEqual((JSON.parse(r.stdout) as ProofEnvelope).payload.telemetry_normalized.events, [EVENTS[0]]);
});

test('subject, meta and created_at come from the options; created_at defaults to now', async (t) => {
  const dir = tempDir(t);
  writeFiles(dir, { 'key.json': KEY, 'e.jsonl': jsonl(EVENTS) });
  const args = ['sign', '--key', 'key.json', '--task', 'T', '--robot', 'R', '--run', 'U', '--meta', '{"site":"lab-2","n":[1]}', 'e.jsonl'];
  const before = Date.now();
  const r = await cli(args, dir);
  const after = Date.now();
  t.is(r.code, 0, r.stderr);
  const { payload } = JSON.parse(r.stdout) as ProofEnvelope;
  t.deepEqual(payload.subject, { task_id: 'T', robot_id: 'R', run_id: 'U' });
  t.deepEqual(payload.meta, { site: 'lab-2', n: [1] });
  const created = parseRfc3339(payload.created_at);
  t.true(created !== null && created >= before - 1 && created <= after, payload.created_at);
  t.true(r.stdout.startsWith('{\n  "payload": {\n    "version": "1",'), 'pretty-printed with 2 spaces');
});

// The independent implementation signed these vectors with the same seed; Ed25519 is
// deterministic, so the CLI must reproduce them exactly, signature included.
for (const c of proofVectors().cases.filter((v) => ['valid-minimal', 'valid-full', 'valid-no-events'].includes(v.name))) {
  test(`sign reproduces vector ${c.name} exactly`, async (t) => {
    const { payload } = c.envelope as ProofEnvelope;
    const dir = tempDir(t);
    writeFiles(dir, { 'key.json': KEY, 'events.json': JSON.stringify(payload.telemetry_normalized.events) });
    const args = ['sign', '--key', 'key.json', '--task', payload.subject.task_id, '--created-at', payload.created_at];
    if (payload.subject.robot_id) args.push('--robot', payload.subject.robot_id);
    if (payload.subject.run_id) args.push('--run', payload.subject.run_id);
    if (payload.meta) args.push('--meta', JSON.stringify(payload.meta));
    const r = await cli([...args, 'events.json'], dir);
    t.is(r.code, 0, r.stderr);
    // Compared as canonical JSON: the vector file writes -0.0, which JSON text cannot keep apart from 0.
    t.is(canonicalText(JSON.parse(r.stdout)), canonicalText(c.envelope));
  });
}
