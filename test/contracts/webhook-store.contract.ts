import test from 'ava';
import type { WebhookStore } from '../../src/application/ports/webhook-store.js';
import { MAX_ENDPOINTS_PER_WALLET, type WebhookEndpoint } from '../../src/domain/events/webhook.js';
import type { DeclareTest } from '../support/databases.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';

let counter = 0;
/** An endpoint as CreateWebhookEndpoint makes it; ids, secrets and creation times unique per call. */
export function anEndpoint(wallet: string, over: Partial<WebhookEndpoint> = {}): WebhookEndpoint {
  const n = ++counter;
  return {
    endpointId: `wh_${n.toString().padStart(8, '0')}`,
    wallet,
    url: `https://receiver.example/hooks/${n}`,
    description: `receiver ${n}`,
    eventTypes: ['proof.accepted', 'device.status_changed'],
    enabled: true,
    disabledReason: null,
    secret: `whsec_${n.toString(16).padStart(32, '0')}`,
    previousSecret: null,
    previousSecretUntilMs: null,
    createdAtMs: 1_790_000_000_000 + n,
    updatedAtMs: 1_790_000_000_000 + n,
    failingSinceMs: null,
    lastSuccessAtMs: null,
    ...over,
  };
}

/** The WebhookStore contract; `make` returns an empty store. */
export function webhookStoreContract(name: string, make: () => Promise<WebhookStore>, testFn: DeclareTest = test): void {
  testFn(`${name}: a created endpoint comes back as stored, filter and all`, async (t) => {
    const store = await make();
    const filtered = anEndpoint(WALLET_A, { failingSinceMs: 5, lastSuccessAtMs: 4 });
    const everything = anEndpoint(WALLET_A, { eventTypes: null, description: null, previousSecret: 'whsec_old', previousSecretUntilMs: 9_000_000_000_000 });
    t.true(await store.create(filtered, MAX_ENDPOINTS_PER_WALLET));
    t.true(await store.create(everything, MAX_ENDPOINTS_PER_WALLET));
    t.deepEqual(await store.get(WALLET_A, filtered.endpointId), filtered);
    t.deepEqual(await store.get(WALLET_A, everything.endpointId), everything);
    t.is(await store.get(WALLET_A, 'wh_missing'), null);
    await t.throwsAsync(store.create({ ...anEndpoint(WALLET_A), endpointId: filtered.endpointId }, MAX_ENDPOINTS_PER_WALLET));
  });

  testFn(`${name}: a wallet lists only its own endpoints, oldest first, and cannot reach another's`, async (t) => {
    const store = await make();
    const later = anEndpoint(WALLET_A, { createdAtMs: 2_000 });
    const earlier = anEndpoint(WALLET_A, { createdAtMs: 1_000 });
    const theirs = anEndpoint(WALLET_B);
    for (const e of [later, earlier, theirs]) await store.create(e, MAX_ENDPOINTS_PER_WALLET);
    t.deepEqual(
      (await store.list(WALLET_A)).map((e) => e.endpointId),
      [earlier.endpointId, later.endpointId],
    );
    t.deepEqual(await store.list('nobody'), []);
    t.is(await store.get(WALLET_A, theirs.endpointId), null);
    t.is(await store.update(WALLET_A, theirs.endpointId, { url: 'https://evil.example/' }, 9), null);
    t.is(await store.rotateSecret(WALLET_A, theirs.endpointId, 'whsec_evil', 10, 9), null);
    t.false(await store.delete(WALLET_A, theirs.endpointId));
    t.deepEqual(await store.get(WALLET_B, theirs.endpointId), theirs);
  });

  testFn(`${name}: a wallet holds at most max endpoints; other wallets are not counted`, async (t) => {
    const store = await make();
    for (let i = 0; i < MAX_ENDPOINTS_PER_WALLET; i++) t.true(await store.create(anEndpoint(WALLET_A), MAX_ENDPOINTS_PER_WALLET));
    const refused = anEndpoint(WALLET_A);
    t.false(await store.create(refused, MAX_ENDPOINTS_PER_WALLET));
    t.is(await store.get(WALLET_A, refused.endpointId), null);
    t.is((await store.list(WALLET_A)).length, MAX_ENDPOINTS_PER_WALLET);
    t.true(await store.create(anEndpoint(WALLET_B), MAX_ENDPOINTS_PER_WALLET));
    await store.delete(WALLET_A, (await store.list(WALLET_A))[0]!.endpointId);
    t.true(await store.create(refused, MAX_ENDPOINTS_PER_WALLET));
  });

  testFn(`${name}: concurrent creates for one wallet never pass the limit`, async (t) => {
    const store = await make();
    const results = await Promise.all(Array.from({ length: 8 }, () => store.create(anEndpoint(WALLET_A), 5)));
    t.is(results.filter(Boolean).length, 5);
    t.is((await store.list(WALLET_A)).length, 5);
  });

  testFn(`${name}: update sets what it is given and leaves the rest`, async (t) => {
    const store = await make();
    const e = anEndpoint(WALLET_A);
    await store.create(e, MAX_ENDPOINTS_PER_WALLET);
    const moved = await store.update(WALLET_A, e.endpointId, { url: 'https://other.example/in' }, 5_000);
    t.deepEqual(moved, { ...e, url: 'https://other.example/in', updatedAtMs: 5_000 });
    const refiltered = await store.update(WALLET_A, e.endpointId, { eventTypes: null, description: null }, 6_000);
    t.deepEqual(refiltered, { ...e, url: 'https://other.example/in', eventTypes: null, description: null, updatedAtMs: 6_000 });
    t.deepEqual(await store.get(WALLET_A, e.endpointId), refiltered);
    t.deepEqual((await store.update(WALLET_A, e.endpointId, { eventTypes: ['key.deleted'] }, 7_000))?.eventTypes, ['key.deleted']);
    t.is(await store.update(WALLET_A, 'wh_missing', { url: 'https://x.example/' }, 1), null);
  });

  testFn(`${name}: disable turns an endpoint off with the registry's reason; the owner turning it on clears reason and streak`, async (t) => {
    const store = await make();
    const e = anEndpoint(WALLET_A, { failingSinceMs: 1_000 });
    const other = anEndpoint(WALLET_B);
    await store.create(e, MAX_ENDPOINTS_PER_WALLET);
    await store.create(other, MAX_ENDPOINTS_PER_WALLET);
    await store.disable(e.endpointId, 'answered 410 Gone', 2_000);
    t.like(await store.get(WALLET_A, e.endpointId), { enabled: false, disabledReason: 'answered 410 Gone', updatedAtMs: 2_000, failingSinceMs: 1_000 });
    t.deepEqual(
      (await store.enabledEndpoints()).map((x) => x.endpointId),
      [other.endpointId],
    );
    const on = await store.update(WALLET_A, e.endpointId, { enabled: true }, 3_000);
    t.like(on, { enabled: true, disabledReason: null, failingSinceMs: null, updatedAtMs: 3_000 });
    t.deepEqual(
      (await store.enabledEndpoints()).map((x) => x.endpointId),
      [e.endpointId, other.endpointId],
    );
  });

  testFn(`${name}: the owner turning an endpoint off leaves no reason, and disable then keeps it so`, async (t) => {
    const store = await make();
    const e = anEndpoint(WALLET_A);
    await store.create(e, MAX_ENDPOINTS_PER_WALLET);
    await store.disable(e.endpointId, 'failing for 5 days', 2_000);
    t.like(await store.update(WALLET_A, e.endpointId, { enabled: false }, 3_000), { enabled: false, disabledReason: null });
    await store.disable(e.endpointId, 'failing for 5 days', 4_000);
    t.like(await store.get(WALLET_A, e.endpointId), { enabled: false, disabledReason: null, updatedAtMs: 3_000 });
    t.deepEqual(await store.enabledEndpoints(), []);
  });

  testFn(`${name}: rotating the secret keeps the replaced one until the given time`, async (t) => {
    const store = await make();
    const e = anEndpoint(WALLET_A);
    await store.create(e, MAX_ENDPOINTS_PER_WALLET);
    const rotated = await store.rotateSecret(WALLET_A, e.endpointId, 'whsec_new', 86_400_000, 1_000);
    t.deepEqual(rotated, { ...e, secret: 'whsec_new', previousSecret: e.secret, previousSecretUntilMs: 86_400_000, updatedAtMs: 1_000 });
    t.like(await store.rotateSecret(WALLET_A, e.endpointId, 'whsec_newer', 90_000_000, 2_000), { secret: 'whsec_newer', previousSecret: 'whsec_new' });
  });

  testFn(`${name}: delete removes the endpoint once`, async (t) => {
    const store = await make();
    const e = anEndpoint(WALLET_A);
    await store.create(e, MAX_ENDPOINTS_PER_WALLET);
    t.true(await store.delete(WALLET_A, e.endpointId));
    t.is(await store.get(WALLET_A, e.endpointId), null);
    t.false(await store.delete(WALLET_A, e.endpointId));
    t.deepEqual(await store.list(WALLET_A), []);
    t.deepEqual(await store.enabledEndpoints(), []);
  });
}
