import test from 'ava';
import { sseParser, type SseMessage } from '../../dashboard/src/sse.js';

// The dashboard's reader of GET /v1/events/stream (it cannot use EventSource, which sends no
// Authorization header): frames as the HTML standard reads them, whatever the chunking.
const parse = (chunks: readonly string[], lastEventId = '') => {
  const messages: SseMessage[] = [];
  const retries: number[] = [];
  const parser = sseParser({ message: (m) => messages.push(m), retry: (ms) => retries.push(ms) }, lastEventId);
  for (const c of chunks) parser.push(c);
  return { messages, retries, lastEventId: parser.lastEventId };
};

const STREAM =
  'retry: 3000\n\n: keep-alive\n\nid: evt_0000000000000001\ndata: {"id":"evt_0000000000000001"}\n\nid: evt_0000000000000002\ndata: {"a":\ndata: 1}\n\n';

test('frames: id and data, multi-line data joined by LF, comments and retry read', (t) => {
  const { messages, retries, lastEventId } = parse([STREAM]);
  t.deepEqual(messages, [
    { id: 'evt_0000000000000001', event: 'message', data: '{"id":"evt_0000000000000001"}' },
    { id: 'evt_0000000000000002', event: 'message', data: '{"a":\n1}' },
  ]);
  t.deepEqual(retries, [3000]);
  t.is(lastEventId, 'evt_0000000000000002');
});

test('the same frames cut at every position, and one character at a time, read the same', (t) => {
  const whole = parse([STREAM]).messages;
  for (let i = 0; i <= STREAM.length; i++) t.deepEqual(parse([STREAM.slice(0, i), STREAM.slice(i)]).messages, whole, `cut at ${i}`);
  t.deepEqual(parse([...STREAM]).messages, whole);
});

test('CRLF and CR line ends, a CRLF split across chunks, and a leading BOM', (t) => {
  const crlf = '\uFEFFid: 1\r\ndata: x\r\n\r\nid: 2\rdata: y\r\r';
  const expected = [
    { id: '1', event: 'message', data: 'x' },
    { id: '2', event: 'message', data: 'y' },
  ];
  t.deepEqual(parse([crlf]).messages, expected);
  for (let i = 0; i <= crlf.length; i++) t.deepEqual(parse([crlf.slice(0, i), crlf.slice(i)]).messages, expected, `cut at ${i}`);
});

test('a frame without data is not dispatched, yet its id counts; an unfinished frame is held back', (t) => {
  const r = parse(['id: evt_1\n\ndata: held'], 'evt_0');
  t.deepEqual(r.messages, []);
  t.is(r.lastEventId, 'evt_1');
});

test('field forms: no space after the colon, no colon, an event name, unknown fields, a NUL in an id, a retry that is not a number', (t) => {
  const r = parse(['event:ping\ndata:a\ndata\nfoo: bar\nid: bad\0id\nretry: soon\n\n']);
  t.deepEqual(r.messages, [{ id: '', event: 'ping', data: 'a\n' }]);
  t.deepEqual(r.retries, []);
});

test('the id given at the start stands until the stream names another', (t) => {
  t.deepEqual(parse(['data: x\n\n'], 'evt_9').messages, [{ id: 'evt_9', event: 'message', data: 'x' }]);
});
