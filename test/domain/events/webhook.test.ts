import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { eventId, parseEventId } from '../../../src/domain/events/event.js';
import { checkWebhookUrl, endpointTakes, MAX_ATTEMPTS, retryDelayMs, signingSecrets, verdictOf } from '../../../src/domain/events/webhook.js';

test('webhook URLs: the form is checked, each refusal naming its rule', (t) => {
  const cases: Array<[string, string | null]> = [
    ['https://hooks.example/in?token=x', null],
    ['http://hooks.example:8080/in', null],
    ['hooks.example/in', 'malformed'],
    ['javascript:alert(1)', 'scheme'],
    ['file:///etc/passwd', 'scheme'],
    ['https://a:b@hooks.example/', 'credentials'],
    ['https://a@hooks.example/', 'credentials'],
    ['https://hooks.example/#x', 'fragment'],
    [`https://hooks.example/${'x'.repeat(2000)}`, 'too_long'],
  ];
  for (const [url, rule] of cases) {
    const checked = checkWebhookUrl(url);
    t.is(E.isLeft(checked) ? checked.left.rule : null, rule, url.slice(0, 40));
  }
});

test('retries: growing delays over about three days, each spread by ±20%, then none', (t) => {
  const at = (jitter: number) => Array.from({ length: MAX_ATTEMPTS }, (_, i) => retryDelayMs(i + 1, jitter));
  t.is(at(0.5)[MAX_ATTEMPTS - 1], null, 'the last attempt has no next');
  const middle = at(0.5).slice(0, -1) as number[];
  t.deepEqual(
    middle,
    [...middle].sort((a, b) => a - b),
    'never shorter than the one before',
  );
  const days = middle.reduce((a, b) => a + b, 0) / 86_400_000;
  t.true(days > 2.5 && days < 3, `${days}`);
  for (let i = 0; i < middle.length; i++) {
    t.is(at(0)[i], Math.round(middle[i]! * 0.8));
    t.is(at(0.999999)[i], Math.round(middle[i]! * 1.2 - middle[i]! * 0.4 * 0.000001));
  }
});

test('verdicts: 2xx succeeds, 410 means gone, anything else (a redirect included) is retried', (t) => {
  t.deepEqual([200, 204, 299, 410, 301, 302, 404, 429, 500, null].map(verdictOf), [
    'succeeded',
    'succeeded',
    'succeeded',
    'gone',
    'retry',
    'retry',
    'retry',
    'retry',
    'retry',
    'retry',
  ]);
});

test('an endpoint takes the types it asked for, and test events sent to it only', (t) => {
  const endpoint = { endpointId: 'whk_1', eventTypes: ['key.created'] as const };
  t.true(endpointTakes(endpoint, { type: 'key.created', target: null }));
  t.false(endpointTakes(endpoint, { type: 'proof.accepted', target: null }));
  t.true(endpointTakes({ ...endpoint, eventTypes: null }, { type: 'proof.accepted', target: null }));
  t.true(endpointTakes(endpoint, { type: 'webhook.test', target: 'whk_1' }));
  t.false(endpointTakes({ ...endpoint, eventTypes: null }, { type: 'webhook.test', target: 'whk_2' }));
});

test('the previous secret signs until its overlap ends', (t) => {
  const endpoint = { secret: 'whsec_new', previousSecret: 'whsec_old', previousSecretUntilMs: 1000 };
  t.deepEqual(signingSecrets(endpoint, 999), ['whsec_new', 'whsec_old']);
  t.deepEqual(signingSecrets(endpoint, 1000), ['whsec_new']);
});

test('event ids sort as text in commit order and read back', (t) => {
  const ids = [1, 9, 10, 123_456_789].map(eventId);
  t.deepEqual([...ids].sort(), ids);
  t.deepEqual(ids.map(parseEventId), [1, 9, 10, 123_456_789]);
  t.deepEqual(['evt_', 'evt_-1', 'evt_1e3', 'evt_00000000000000001', 'msg_1', ''].map(parseEventId), [null, null, null, null, null, null]);
});
