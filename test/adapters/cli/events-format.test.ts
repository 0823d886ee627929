import test from 'ava';
import { eventLine } from '../../../src/adapters/cli/event-line.js';
import { parseSse, sseStart, type SseMessage } from '../../../src/adapters/cli/sse-parser.js';
import { accepted, event, PROOF } from './events-support.js';

// The parser, one table: each input must give the same messages and resume id however it is cut into chunks.
const m = (id: string, data: string, type = 'message'): SseMessage => ({ id, type, data });
const PARSES: Array<[string, string, SseMessage[], string, number | null]> = [
  ['one event', 'id: evt_1\ndata: {"a":1}\n\n', [m('evt_1', '{"a":1}')], 'evt_1', null],
  ['CRLF line endings', 'retry: 3000\r\n\r\nid: 1\r\ndata: x\r\n\r\n', [m('1', 'x')], '1', 3000],
  ['CR line endings', 'id: 1\rdata: x\r\r', [m('1', 'x')], '1', null],
  ['mixed line endings: an LF after CRLF is a line of its own', 'data: x\r\n\ndata: y\r\r\n\n', [m('', 'x'), m('', 'y')], '', null],
  ['data over several lines; one leading space dropped', 'data: a\ndata:b\ndata:  c\ndata\n\n', [m('', 'a\nb\n c\n')], '', null],
  ['comments and retry dispatch nothing; a bad retry is ignored', ': keep-alive\n\nretry: 10\n\nretry: 3s\n\n:x\n', [], '', 10],
  ['an id carries over to the next event', 'id: 1\ndata: a\n\ndata: b\n\n', [m('1', 'a'), m('1', 'b')], '1', null],
  ['an id alone moves the resume point', 'id: 7\n\n', [], '7', null],
  ['an unfinished event is not dispatched, nor its id kept', 'id: 1\ndata: a\n\nid: 2\ndata: {"par', [m('1', 'a')], '1', null],
  [
    'event types, an id holding NUL ignored, unknown fields ignored',
    'id: 3\nevent: ping\nfoo: bar\ndata: x\n\nid: 4\0\ndata: y\n\n',
    [m('3', 'x', 'ping'), m('3', 'y')],
    '3',
    null,
  ],
];
for (const [name, input, messages, lastEventId, retryMs] of PARSES) {
  test(`parseSse: ${name}`, (t) => {
    const cuts = [[input], [...input], ...[...input].map((_, i) => [input.slice(0, i), input.slice(i)])];
    for (const chunks of cuts) {
      let state = sseStart();
      const got: SseMessage[] = [];
      for (const chunk of chunks) {
        const parsed = parseSse(state, chunk);
        state = parsed.state;
        got.push(...parsed.messages);
      }
      t.deepEqual([got, state.lastEventId, state.retryMs], [messages, lastEventId, retryMs], JSON.stringify(chunks));
    }
  });
}

const LINES: Array<[object, string]> = [
  [accepted(12), '2026-12-05T10:00:00.000Z proof.accepted 7621…56515 task=pick-12 robot=arm-07 leaf=12'],
  [
    event(1, 'proof.rejected', { code: 'signature_invalid', check: 'signature', detail: 'bad\x1b[2Jsig', proof_id: null, task_id: 'a b', robot_id: null }),
    '2026-12-05T10:00:00.000Z proof.rejected signature_invalid check=signature task="a b": bad\\u{1b}[2Jsig',
  ],
  [event(2, 'proof.logged', { proof_id: PROOF, log_index: 3, tree_size: 9, hashes: [] }), '2026-12-05T10:00:00.000Z proof.logged 7621…56515 leaf=3 tree=9'],
  [
    event(3, 'device.status_changed', { device_id: 'arm-07', from: 'online', to: 'offline', why: 'silence' }),
    '2026-12-05T10:00:00.000Z device.status_changed arm-07 online→offline (silence)',
  ],
  [
    event(4, 'device.status_changed', { device_id: 'arm\u202e-1\n', from: null, to: 'online', why: 'proof' }),
    '2026-12-05T10:00:00.000Z device.status_changed "arm\\u{202e}-1\\n" new→online (proof)',
  ],
  [
    event(5, 'key.created', { key_id: 'key_Q1', name: 'line robots', prefix: 'pr_live_5Hq3' }),
    '2026-12-05T10:00:00.000Z key.created key_Q1 "line robots" prefix=pr_live_5Hq3',
  ],
  [event(6, 'fleet.renamed', { a: 1 }), '2026-12-05T10:00:00.000Z fleet.renamed {"a":1}'],
];
test('eventLine: one line per type, what devices wrote escaped, an unknown type as its JSON', (t) => {
  for (const [body, line] of LINES) t.is(eventLine(body as Record<string, unknown>), line);
});
