import test from 'ava';
import { NodeWebhookTransport } from '../../../src/adapters/webhooks/node-webhook-transport.js';
import { ThreadedWebhookTransport } from '../../../src/adapters/webhooks/threaded-webhook-transport.js';
import { startReceiver } from '../../support/webhook-receiver.js';

const HEADERS = { 'webhook-id': 'msg_1', 'webhook-timestamp': '1790000000', 'webhook-signature': 'v1,c2lnbmF0dXJl' };
const BODY = '{"type":"proof.accepted","data":{"note":"Zürich ✓","n":1.0}}';

test('posts from its thread: headers and body arrive as given, answers come back to each caller', async (t) => {
  const receiver = await startReceiver(t);
  receiver.answer = (r) => (r.headers['webhook-id'] === 'msg_gone' ? 410 : 200);
  const transport = new ThreadedWebhookTransport({ allowPrivate: true, userAgent: 'registry-test/1' });
  t.teardown(() => transport.close());
  const ids = Array.from({ length: 40 }, (_, i) => (i === 7 ? 'msg_gone' : `msg_${i}`));
  const answers = await Promise.all(ids.map((id) => transport.post({ url: receiver.url, headers: { ...HEADERS, 'webhook-id': id }, body: BODY })));
  t.is(receiver.received.length, 40);
  for (const [i, a] of answers.entries()) t.is(a.statusCode, i === 7 ? 410 : 200, `answer ${i} is its own`);
  t.like(answers[7], { error: 'answered 410' });
  const got = receiver.received.find((r) => r.headers['webhook-id'] === 'msg_3')!;
  t.is(got.body, BODY, 'the body byte for byte, as signed');
  t.like(got.headers, { 'webhook-timestamp': '1790000000', 'webhook-signature': 'v1,c2lnbmF0dXJl', 'user-agent': 'registry-test/1' });
});

test("the thread keeps the transport's rules: loopback is refused without allowPrivate, and nothing is sent", async (t) => {
  const receiver = await startReceiver(t);
  const transport = new ThreadedWebhookTransport({});
  t.teardown(() => transport.close());
  const answer = await transport.post({ url: receiver.url, headers: HEADERS, body: BODY });
  t.is(answer.statusCode, null);
  t.regex(answer.error ?? '', /^refused: 127\.0\.0\.1 is /);
  t.is(receiver.received.length, 0);
});

test('a thread that dies: the attempts it held come back as failures, and the next post starts a new thread', async (t) => {
  const receiver = await startReceiver(t);
  receiver.answer = () => 'hang';
  const transport = new ThreadedWebhookTransport({ allowPrivate: true, timeoutMs: 60_000 });
  t.teardown(() => transport.close());
  const held = transport.post({ url: receiver.url, headers: HEADERS, body: BODY });
  await receiver.until((r) => r.length === 1, 'the first attempt');
  await (transport as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
  t.like(await held, { statusCode: null });
  t.regex((await held).error ?? '', /^the sending thread stopped/);
  receiver.answer = () => 200;
  t.like(await transport.post({ url: receiver.url, headers: HEADERS, body: BODY }), { statusCode: 200 });
});

test('after close, a post is a failed attempt and the thread has ended', async (t) => {
  const receiver = await startReceiver(t);
  const transport = new ThreadedWebhookTransport({ allowPrivate: true });
  t.like(await transport.post({ url: receiver.url, headers: HEADERS, body: BODY }), { statusCode: 200 });
  await transport.close();
  t.like(await transport.post({ url: receiver.url, headers: HEADERS, body: BODY }), { statusCode: null, error: 'the transport is closed' });
  t.is(receiver.received.length, 1);
});

test('an attempt whose time ran out before it could be sent is not sent', async (t) => {
  const receiver = await startReceiver(t);
  const transport = new NodeWebhookTransport({ allowPrivate: true, timeoutMs: 1_000 });
  t.teardown(() => transport.close());
  t.like(await transport.post({ url: receiver.url, headers: HEADERS, body: BODY }, 0), { statusCode: null, error: 'timed out after 1 s' });
  t.like(await transport.post({ url: receiver.url, headers: HEADERS, body: BODY }, -5), { statusCode: null });
  t.is(receiver.received.length, 0, 'nothing reached the receiver');
});

test("through the thread, an attempt's deadline holds: a receiver that hangs is cut off", async (t) => {
  const receiver = await startReceiver(t);
  receiver.answer = () => 'hang';
  const transport = new ThreadedWebhookTransport({ allowPrivate: true, timeoutMs: 1_000 });
  t.teardown(() => transport.close());
  const answer = await transport.post({ url: receiver.url, headers: HEADERS, body: BODY });
  t.like(answer, { statusCode: null, error: 'timed out after 1 s' });
});
