import test from 'ava';
import { WALLET_A, WALLET_B } from '../../../support/mothers.js';
import { startTestRegistry, type TestRegistry } from '../../../support/registry.js';

// The webhook routes' rules, on a registry that refuses private addresses (the default).

let registry: TestRegistry;
test.before(async () => {
  registry = await startTestRegistry({ env: { EVENT_POLL_MS: '20' } });
});
test.after.always(() => registry?.close());

const create = (wallet: string, body: unknown) => registry.call(wallet, 'POST', '/v1/webhooks', body);

test('a URL that is malformed, of another scheme, with credentials or a fragment, or pointing at a private address is refused naming the rule; nothing is stored', async (t) => {
  const cases: Array<[string, string]> = [
    ['not a url', 'malformed'],
    ['ftp://hooks.example/in', 'scheme'],
    ['https://user:pw@hooks.example/in', 'credentials'],
    ['https://hooks.example/in#part', 'fragment'],
    ['http://127.0.0.1:8080/in', 'private_address'],
    ['http://localhost/in', 'private_address'],
    ['http://10.1.2.3/in', 'private_address'],
    ['http://169.254.169.254/latest/meta-data', 'private_address'],
    ['http://[::1]/in', 'private_address'],
    ['http://0x7f.1/in', 'private_address'],
    [`https://hooks.example/${'a'.repeat(2000)}`, 'too_long'],
  ];
  for (const [url, rule] of cases) {
    const res = await create(WALLET_A, { url });
    t.is(res.status, 422, url.slice(0, 60));
    t.is(res.body.rule, rule, url.slice(0, 60));
    t.is(typeof res.body.detail, 'string');
  }
  t.deepEqual((await registry.call(WALLET_A, 'GET', '/v1/webhooks')).body.items, []);
});

test('an unknown event type, an empty filter or an unknown member is refused', async (t) => {
  const unknown = await create(WALLET_A, { url: 'https://hooks.example/a', event_types: ['proof.accepted', 'proof.exploded'] });
  t.is(unknown.status, 422);
  t.regex(unknown.body.detail, /proof\.exploded/);
  t.is((await create(WALLET_A, { url: 'https://hooks.example/a', event_types: [] })).status, 422);
  t.is((await create(WALLET_A, { url: 'https://hooks.example/a', secret: 'mine' })).status, 422);
  t.is((await create(WALLET_A, {})).status, 422);
});

test('the secret is shown once; a wallet holds at most 20 endpoints; another wallet sees none of them', async (t) => {
  const wallet = '4Nd1mBQtrMJVYVfKf2PJy9NZUZdTAsp7D4xWLs4gDB4T';
  const first = await create(wallet, { url: 'https://hooks.example/0', event_types: ['key.created'], description: 'ops' });
  t.is(first.status, 201);
  t.regex(first.body.secret, /^whsec_/);
  t.like(first.body, { url: 'https://hooks.example/0', event_types: ['key.created'], description: 'ops', enabled: true, disabled_reason: null });
  const id = first.body.endpoint_id as string;
  t.false('secret' in (await registry.call(wallet, 'GET', `/v1/webhooks/${id}`)).body);
  for (let i = 1; i < 20; i++) t.is((await create(wallet, { url: `https://hooks.example/${i}` })).status, 201);
  const over = await create(wallet, { url: 'https://hooks.example/20' });
  t.is(over.status, 422);
  t.is(over.body.code, 'too_many_endpoints');
  t.is((await registry.call(wallet, 'GET', '/v1/webhooks')).body.items.length, 20);
  for (const [method, path] of [
    ['GET', `/v1/webhooks/${id}`],
    ['PATCH', `/v1/webhooks/${id}`],
    ['DELETE', `/v1/webhooks/${id}`],
    ['POST', `/v1/webhooks/${id}/test`],
    ['POST', `/v1/webhooks/${id}/rotate-secret`],
    ['GET', `/v1/webhooks/${id}/deliveries`],
  ] as const) {
    const res = await registry.call(WALLET_B, method, path, method === 'PATCH' || path.endsWith('rotate-secret') ? {} : undefined);
    t.is(res.status, 404, `${method} ${path}`);
  }
  t.is((await create(WALLET_B, { url: 'https://hooks.example/b' })).status, 201, "another wallet's count is its own");
});

test('rotation returns a new secret once and keeps the old one for the overlap; a disabled endpoint takes no test event; delete ends it', async (t) => {
  const wallet = '8bfPS3gzNNVqTcrXSfDtG6u7WSm2wfq3WSoKVGJJsdzh';
  const made = await create(wallet, { url: 'https://hooks.example/r' });
  const id = made.body.endpoint_id as string;
  const rotated = await registry.call(wallet, 'POST', `/v1/webhooks/${id}/rotate-secret`, { overlap_s: 3600 });
  t.is(rotated.status, 200);
  t.not(rotated.body.secret, made.body.secret);
  t.regex(rotated.body.secret, /^whsec_/);
  const expires = Date.parse(rotated.body.previous_secret_expires_at);
  t.true(Math.abs(expires - Date.now() - 3_600_000) < 60_000);
  t.is((await registry.call(wallet, 'POST', `/v1/webhooks/${id}/rotate-secret`, { overlap_s: 8 * 86_400 })).status, 422);
  const off = await registry.call(wallet, 'PATCH', `/v1/webhooks/${id}`, { enabled: false, description: 'paused' });
  t.like(off.body, { enabled: false, description: 'paused', disabled_reason: null });
  t.is((await registry.call(wallet, 'POST', `/v1/webhooks/${id}/test`)).status, 409);
  t.is((await registry.call(wallet, 'PATCH', `/v1/webhooks/${id}`, { url: 'http://192.168.1.5/x' })).body.rule, 'private_address');
  t.is((await registry.call(wallet, 'DELETE', `/v1/webhooks/${id}`)).status, 204);
  t.is((await registry.call(wallet, 'GET', `/v1/webhooks/${id}`)).status, 404);
});

test('the feed refuses a cursor or a type it does not know, and pages its own wallet only', async (t) => {
  t.is((await registry.call(WALLET_A, 'GET', '/v1/events?after=42')).status, 422);
  const badType = await registry.call(WALLET_A, 'GET', '/v1/events?types=proof.accepted,nope');
  t.is(badType.status, 422);
  t.regex(badType.body.detail, /nope/);
  t.is((await registry.call(WALLET_A, 'GET', '/v1/events?limit=0')).status, 422);
  t.is((await registry.call(WALLET_A, 'GET', '/v1/events/stream?types=nope')).status, 422);
  t.is((await registry.call(WALLET_A, 'GET', '/v1/events/stream', undefined, { 'last-event-id': 'evt_x' })).status, 422);
  t.is((await registry.call(null, 'GET', '/v1/events')).status, 401);
  const empty = await registry.call('6xYz5bQfRkdJcS9vNnU3hW2mT8pL4aE7gC1jK9sDqVrB', 'GET', '/v1/events');
  t.deepEqual(empty.body.items, []);
  t.false(empty.body.has_more);
});
