import test from 'ava';
import type { EventLog } from '../../src/application/ports/event-log.js';
import type { ApiKeyRecord, KeyStore } from '../../src/application/ports/key-store.js';
import type { DeclareTest } from '../support/databases.js';
import { SCOPES } from '../../src/domain/identity/key-grant.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';

let counter = 0;
/** A key record as CreateApiKey makes it; ids and hashes unique per call. */
export function aKeyRecord(wallet: string, over: Partial<ApiKeyRecord> = {}): ApiKeyRecord {
  const n = ++counter;
  return {
    keyId: `key_${n.toString().padStart(6, '0')}`,
    wallet,
    name: `key ${n}`,
    prefix: `pr_live_${n.toString().padStart(8, '0')}`,
    keyHash: n.toString(16).padStart(64, '0'),
    createdAtMs: 1_790_000_000_000 + n,
    lastUsedAtMs: null,
    requestCount: 0,
    errorCount: 0,
    scopes: null,
    robotIds: null,
    expiresAtMs: null,
    disabledAtMs: null,
    ...over,
  };
}

/** The KeyStore contract; `make` returns an empty store. */
export function keyStoreContract(name: string, make: () => Promise<KeyStore>, testFn: DeclareTest = test): void {
  testFn(`${name}: a created key is found by its hash, with zero usage`, async (t) => {
    const store = await make();
    const key = aKeyRecord(WALLET_A);
    await store.create(key);
    t.deepEqual(await store.findByHash(key.keyHash), key);
    t.is(await store.findByHash('f'.repeat(64)), null);
  });

  testFn(`${name}: key ids and hashes are unique`, async (t) => {
    const store = await make();
    const key = aKeyRecord(WALLET_A);
    await store.create(key);
    await t.throwsAsync(store.create({ ...aKeyRecord(WALLET_A), keyId: key.keyId }));
    await t.throwsAsync(store.create({ ...aKeyRecord(WALLET_B), keyHash: key.keyHash }));
  });

  testFn(`${name}: a wallet lists and counts only its own keys, oldest first`, async (t) => {
    const store = await make();
    const later = aKeyRecord(WALLET_A, { createdAtMs: 2_000 });
    const earlier = aKeyRecord(WALLET_A, { createdAtMs: 1_000 });
    await store.create(later);
    await store.create(earlier);
    await store.create(aKeyRecord(WALLET_B));
    t.deepEqual(
      (await store.listByWallet(WALLET_A)).map((k) => k.keyId),
      [earlier.keyId, later.keyId],
    );
    t.is(await store.countByWallet(WALLET_A), 2);
    t.is(await store.countByWallet(WALLET_B), 1);
    t.is(await store.countByWallet('nobody'), 0);
    t.deepEqual(await store.listByWallet('nobody'), []);
  });

  testFn(`${name}: delete removes the wallet's key at once; another wallet cannot delete it`, async (t) => {
    const store = await make();
    const key = aKeyRecord(WALLET_A);
    await store.create(key);
    t.false(await store.delete(WALLET_B, key.keyId, 1_790_000_000_000));
    t.truthy(await store.findByHash(key.keyHash));
    t.true(await store.delete(WALLET_A, key.keyId, 1_790_000_000_000));
    t.is(await store.findByHash(key.keyHash), null);
    t.false(await store.delete(WALLET_A, key.keyId, 1_790_000_000_000));
    t.deepEqual(await store.listByWallet(WALLET_A), []);
  });

  testFn(`${name}: a key's scopes, robots and expiry are kept as created, an unscoped key as holding every scope`, async (t) => {
    const store = await make();
    const bound = aKeyRecord(WALLET_A, { scopes: ['proofs:write', 'health:write'], robotIds: ['arm-1', 'arm 2 ü'], expiresAtMs: 1_800_000_000_123 });
    const full = aKeyRecord(WALLET_A);
    await store.create(bound);
    await store.create(full);
    t.deepEqual(await store.findByHash(bound.keyHash), bound);
    t.like(await store.findByHash(full.keyHash), { scopes: null, robotIds: null, expiresAtMs: null, disabledAtMs: null });
  });

  testFn(`${name}: update renames, disables (keeping the first time) and enables only the wallet's own key`, async (t) => {
    const store = await make();
    const key = aKeyRecord(WALLET_A, { scopes: ['verify'] });
    await store.create(key);
    t.is(await store.update(WALLET_B, key.keyId, { enabled: false }, 5_000), null);
    t.is(await store.update(WALLET_A, 'key_none', { enabled: false }, 5_000), null);
    t.like(await store.findByHash(key.keyHash), { disabledAtMs: null });
    t.like(await store.update(WALLET_A, key.keyId, { enabled: false }, 5_000), { disabledAtMs: 5_000, name: key.name });
    t.like(await store.update(WALLET_A, key.keyId, { enabled: false, name: 'renamed' }, 6_000), { disabledAtMs: 5_000, name: 'renamed' });
    t.like(await store.findByHash(key.keyHash), { disabledAtMs: 5_000, name: 'renamed', scopes: ['verify'] });
    t.like(await store.update(WALLET_A, key.keyId, { enabled: true }, 7_000), { disabledAtMs: null });
    t.like(await store.findByHash(key.keyHash), { disabledAtMs: null, name: 'renamed' });
  });

  testFn(`${name}: usage adds up and last-used only moves forward`, async (t) => {
    const store = await make();
    const key = aKeyRecord(WALLET_A);
    await store.create(key);
    await store.addUsage([{ keyId: key.keyId, requests: 3, errors: 1, lastUsedAtMs: 5_000 }]);
    await store.addUsage([{ keyId: key.keyId, requests: 2, errors: 0, lastUsedAtMs: 4_000 }]);
    t.like(await store.findByHash(key.keyHash), { requestCount: 5, errorCount: 1, lastUsedAtMs: 5_000 });
    await store.addUsage([{ keyId: key.keyId, requests: 1, errors: 1, lastUsedAtMs: 9_000 }]);
    t.like(await store.findByHash(key.keyHash), { requestCount: 6, errorCount: 2, lastUsedAtMs: 9_000 });
  });

  testFn(`${name}: concurrent usage flushes lose nothing; deleted keys are skipped`, async (t) => {
    const store = await make();
    const key = aKeyRecord(WALLET_A);
    const gone = aKeyRecord(WALLET_A);
    await store.create(key);
    await store.create(gone);
    await store.delete(WALLET_A, gone.keyId, 1_790_000_000_000);
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        store.addUsage([
          { keyId: key.keyId, requests: 10, errors: i % 2, lastUsedAtMs: 1_000 + i },
          { keyId: gone.keyId, requests: 1, errors: 1, lastUsedAtMs: 1 },
        ]),
      ),
    );
    t.like(await store.findByHash(key.keyHash), { requestCount: 100, errorCount: 5, lastUsedAtMs: 1_009 });
    t.is(await store.findByHash(gone.keyHash), null);
  });

  testFn(`${name}: large counters survive the round trip as numbers`, async (t) => {
    const store = await make();
    const key = aKeyRecord(WALLET_A);
    await store.create(key);
    await store.addUsage([{ keyId: key.keyId, requests: 3_000_000_000, errors: 2_500_000_000, lastUsedAtMs: 1_790_000_000_123 }]);
    const got = await store.findByHash(key.keyHash);
    t.is(got?.requestCount, 3_000_000_000);
    t.is(got?.errorCount, 2_500_000_000);
    t.is(got?.lastUsedAtMs, 1_790_000_000_123);
  });
}

/** Keys announce their creation and deletion in the change's own transaction. */
export function keyEventsContract(name: string, make: () => Promise<{ keys: KeyStore; events: EventLog }>, testFn: DeclareTest = test): void {
  testFn(`${name}: creating and deleting a key announces it to its wallet only, and a refused create announces nothing`, async (t) => {
    const { keys, events } = await make();
    const key = aKeyRecord(WALLET_A, { name: 'robot 7', createdAtMs: 1_790_000_000_000 });
    await keys.create(key);
    await t.throwsAsync(keys.create({ ...aKeyRecord(WALLET_A), keyId: key.keyId }));
    t.false(await keys.delete(WALLET_B, key.keyId, 1_790_000_001_000));
    t.true(await keys.delete(WALLET_A, key.keyId, 1_790_000_002_000));
    const seen = (await events.walletEvents(WALLET_A, 0, { limit: 10 })).items;
    t.deepEqual(
      seen.map((e) => [e.type, e.atMs, e.data]),
      [
        [
          'key.created',
          1_790_000_000_000,
          {
            key_id: key.keyId,
            name: 'robot 7',
            prefix: key.prefix,
            created_at: '2026-09-21T14:13:20.000Z',
            scopes: [...SCOPES],
            robot_ids: null,
            expires_at: null,
          },
        ],
        ['key.deleted', 1_790_000_002_000, { key_id: key.keyId, name: 'robot 7', prefix: key.prefix }],
      ],
    );
    t.true(seen[0]!.id < seen[1]!.id);
    t.deepEqual((await events.walletEvents(WALLET_B, 0, { limit: 10 })).items, []);
  });

  testFn(`${name}: renaming, disabling and enabling a key announces each change once; a change that changes nothing announces nothing`, async (t) => {
    const { keys, events } = await make();
    const key = aKeyRecord(WALLET_A, { name: 'arm', scopes: ['proofs:write'], robotIds: ['arm-1'], expiresAtMs: 1_800_000_000_000 });
    await keys.create(key);
    t.is(await keys.update(WALLET_B, key.keyId, { enabled: false }, 1_790_000_001_000), null);
    await keys.update(WALLET_A, key.keyId, { enabled: false }, 1_790_000_002_000);
    await keys.update(WALLET_A, key.keyId, { enabled: false, name: 'arm' }, 1_790_000_003_000);
    await keys.update(WALLET_A, key.keyId, { name: 'left arm', enabled: true }, 1_790_000_004_000);
    const seen = (await events.walletEvents(WALLET_A, 0, { limit: 10 })).items;
    t.deepEqual(
      seen.map((e) => [e.type, e.atMs, e.data]),
      [
        [
          'key.created',
          key.createdAtMs,
          {
            key_id: key.keyId,
            name: 'arm',
            prefix: key.prefix,
            created_at: new Date(key.createdAtMs).toISOString(),
            scopes: ['proofs:write'],
            robot_ids: ['arm-1'],
            expires_at: '2027-01-15T08:00:00.000Z',
          },
        ],
        ['key.updated', 1_790_000_002_000, { key_id: key.keyId, name: 'arm', prefix: key.prefix, enabled: false, changed: ['enabled'] }],
        ['key.updated', 1_790_000_004_000, { key_id: key.keyId, name: 'left arm', prefix: key.prefix, enabled: true, changed: ['name', 'enabled'] }],
      ],
    );
    t.deepEqual((await events.walletEvents(WALLET_B, 0, { limit: 10 })).items, []);
  });
}
