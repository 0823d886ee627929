import test from 'ava';
import { Webhook } from 'standardwebhooks';
import { isWebhookSecret, newWebhookSecret, signatureHeader, verifySignature } from '../../../src/adapters/webhooks/standard-webhook-signer.js';

// The reference library checks timestamps against its own clock, so messages here are signed "now".
const nowS = () => Math.floor(Date.now() / 1000);
const BODY = '{"type":"proof.accepted","timestamp":"2026-11-20T10:00:00Z","data":{"proof_id":"4d7d…","note":"Zürich ✓"}}';
const ID = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';

function headers(id: string, timestampS: number, signature: string): Record<string, string> {
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampS), 'webhook-signature': signature };
}

/** Whether the reference library accepts the message. */
function referenceAccepts(secret: string, body: string, h: Record<string, string>): boolean {
  try {
    new Webhook(secret).verify(body, h);
    return true;
  } catch {
    return false;
  }
}

test('a new secret is whsec_ and 32 random bytes, and round-trips through the reference library', (t) => {
  const secret = newWebhookSecret();
  t.regex(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
  t.is(Buffer.from(secret.slice('whsec_'.length), 'base64').length, 32);
  t.true(isWebhookSecret(secret));
  t.not(newWebhookSecret(), secret);
  const ts = nowS();
  const reference = new Webhook(secret).sign(ID, new Date(ts * 1000), BODY);
  t.is(signatureHeader([secret], ID, ts, BODY), reference);
});

test('isWebhookSecret refuses what is not whsec_ and canonical base64 of 24 to 64 bytes', (t) => {
  const of = (bytes: number) => `whsec_${Buffer.alloc(bytes, 7).toString('base64')}`;
  t.true(isWebhookSecret(of(24)));
  t.true(isWebhookSecret(of(64)));
  for (const secret of [of(23), of(65), Buffer.alloc(32).toString('base64'), 'whsec_', 'whsec_not base64!', `${of(32)}x`, of(32).replace(/=$/, '')]) {
    t.false(isWebhookSecret(secret), secret);
  }
});

test('a header made with one secret is accepted by the reference library', (t) => {
  const secret = newWebhookSecret();
  const ts = nowS();
  const signature = signatureHeader([secret], ID, ts, BODY);
  t.regex(signature, /^v1,[A-Za-z0-9+/]{43}=$/);
  t.true(referenceAccepts(secret, BODY, headers(ID, ts, signature)));
});

test('with two secrets there are two signatures, and each secret alone verifies', (t) => {
  const [old, current] = [newWebhookSecret(), newWebhookSecret()];
  const ts = nowS();
  const signature = signatureHeader([old, current], ID, ts, BODY);
  const parts = signature.split(' ');
  t.is(parts.length, 2);
  t.true(parts.every((p) => p.startsWith('v1,')));
  for (const secret of [old, current]) {
    t.true(referenceAccepts(secret, BODY, headers(ID, ts, signature)));
    t.deepEqual(verifySignature({ secret, id: ID, timestamp: ts, signature, body: BODY, nowS: ts }), { ok: true });
  }
  t.false(referenceAccepts(newWebhookSecret(), BODY, headers(ID, ts, signature)), 'a third secret does not');
});

test('a changed body, id or timestamp is refused by the reference library and by verifySignature', (t) => {
  const secret = newWebhookSecret();
  const ts = nowS();
  const signature = signatureHeader([secret], ID, ts, BODY);
  const changes = [
    { id: ID, ts, body: BODY.replace('accepted', 'refused') },
    { id: ID, ts, body: `${BODY} ` },
    { id: `${ID}x`, ts, body: BODY },
    { id: ID, ts: ts - 1, body: BODY },
  ];
  for (const change of changes) {
    t.false(referenceAccepts(secret, change.body, headers(change.id, change.ts, signature)), JSON.stringify(change));
    t.deepEqual(verifySignature({ secret, id: change.id, timestamp: change.ts, signature, body: change.body, nowS: ts }), {
      ok: false,
      reason: 'no signature matches',
    });
  }
  t.true(referenceAccepts(secret, BODY, headers(ID, ts, signature)), 'the unchanged message still verifies');
});

test('verifySignature accepts what the reference library signs, and agrees with it on each case', (t) => {
  const secret = newWebhookSecret();
  const other = newWebhookSecret();
  const ts = nowS();
  const reference = new Webhook(secret).sign(ID, new Date(ts * 1000), BODY);
  const cases = [
    { signature: reference, ok: true },
    { signature: `v1,${'A'.repeat(43)}= ${reference}`, ok: true },
    { signature: new Webhook(other).sign(ID, new Date(ts * 1000), BODY), ok: false },
    { signature: reference.replace('v1,', 'v2,'), ok: false },
    { signature: `${reference}x`, ok: false },
    { signature: reference.slice(0, -2), ok: false },
  ];
  for (const c of cases) {
    const ours = verifySignature({ secret, id: ID, timestamp: String(ts), signature: c.signature, body: BODY, nowS: ts });
    t.is(ours.ok, c.ok, c.signature);
    t.is(referenceAccepts(secret, BODY, headers(ID, ts, c.signature)), c.ok, c.signature);
  }
});

test('verifySignature names why it refuses', (t) => {
  const secret = newWebhookSecret();
  const ts = 1_790_000_000;
  const signature = signatureHeader([secret], ID, ts, BODY);
  const check = (changes: Partial<Parameters<typeof verifySignature>[0]>) =>
    verifySignature({ secret, id: ID, timestamp: ts, signature, body: BODY, nowS: ts, ...changes });
  t.deepEqual(check({}), { ok: true });
  t.deepEqual(check({ nowS: ts + 300 }), { ok: true }, 'the tolerance is inclusive, as in the reference library');
  t.deepEqual(check({ nowS: ts + 301 }), { ok: false, reason: 'stale timestamp: signed 301 s ago, beyond the tolerance of 300 s' });
  t.deepEqual(check({ nowS: ts - 301 }), { ok: false, reason: 'future timestamp: signed 301 s ahead, beyond the tolerance of 300 s' });
  t.deepEqual(check({ nowS: ts + 1000, toleranceS: 1000 }), { ok: true });
  t.deepEqual(check({ signature: signature.replace('v1,', 'v1a,') }), { ok: false, reason: 'no v1 signature in the header' });
  t.deepEqual(check({ signature: '' }), { ok: false, reason: 'no v1 signature in the header' });
  t.deepEqual(check({ secret: 'whsec_short' }), { ok: false, reason: 'malformed secret: expected whsec_ and the base64 of 24 to 64 bytes' });
  for (const timestamp of ['soon', '', '0123', `${ts}.5`]) t.regex((check({ timestamp }) as { reason: string }).reason, /^malformed timestamp/);
});

test('the body is signed byte for byte, whether given as text or bytes', (t) => {
  const secret = newWebhookSecret();
  const ts = nowS();
  const bytes = Buffer.from(BODY, 'utf8');
  t.is(signatureHeader([secret], ID, ts, bytes), signatureHeader([secret], ID, ts, BODY));
  t.true(verifySignature({ secret, id: ID, timestamp: ts, signature: signatureHeader([secret], ID, ts, BODY), body: bytes, nowS: ts }).ok);
  // JSON that means the same with other bytes is another message.
  const reformatted = JSON.stringify(JSON.parse(BODY), null, 1);
  t.false(verifySignature({ secret, id: ID, timestamp: ts, signature: signatureHeader([secret], ID, ts, BODY), body: reformatted, nowS: ts }).ok);
});

test('signatureHeader refuses to sign without a secret, with a malformed one, or with a timestamp that is not whole seconds', (t) => {
  t.throws(() => signatureHeader([], ID, 1, BODY), { instanceOf: RangeError });
  t.throws(() => signatureHeader(['whsec_short'], ID, 1, BODY), { instanceOf: TypeError });
  t.throws(() => signatureHeader([newWebhookSecret()], ID, 1.5, BODY), { instanceOf: RangeError });
  t.throws(() => signatureHeader([newWebhookSecret()], ID, Date.now() * 1e6, BODY), { instanceOf: RangeError });
});
