import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { CreateApiKey } from '../../../src/application/identity/create-api-key.js';
import { errorRate } from '../../../src/domain/identity/api-key.js';
import { KeyUsageRecorder } from '../../../src/application/identity/key-usage-recorder.js';
import { MemoryKeyStore } from '../../../src/adapters/memory/memory-key-store.js';
import { isWellFormedApiKey } from '../../../src/domain/identity/api-key.js';
import { aWallet, memoryIdentity } from '../../support/identity.js';

const alice = aWallet(1).address;
const bob = aWallet(2).address;

test('a created key is well-formed, returned once, and stored only as its SHA-256', async (t) => {
  const id = memoryIdentity();
  const created = await id.createKey.execute({ wallet: alice, name: 'robot fleet' });
  if (E.isLeft(created)) return t.fail();
  const { key, record } = created.right;
  t.true(isWellFormedApiKey(key));
  t.is(record.prefix, key.slice(0, 16));
  t.regex(record.keyId, /^key_[1-9A-HJ-NP-Za-km-z]+$/);
  t.is(record.keyHash, Buffer.from(id.crypto.sha256(new TextEncoder().encode(key))).toString('hex'));
  const stored = await id.keys.listByWallet(alice);
  t.is(stored.length, 1);
  t.false(JSON.stringify(stored).includes(key.slice(16)), 'the secret part is stored nowhere');
});

test('usage figures move with each request: requests, errors, last used', async (t) => {
  const id = memoryIdentity();
  const created = await id.createKey.execute({ wallet: alice, name: 'k' });
  if (E.isLeft(created)) return t.fail();
  const { keyId } = created.right.record;
  id.usage.record(keyId, 200, 1_000);
  id.usage.record(keyId, 404, 3_000);
  id.usage.record(keyId, 201, 2_000);
  id.usage.record(keyId, 500, 2_500);
  const listed = await id.listKeys.execute({ wallet: alice });
  if (E.isLeft(listed)) return t.fail();
  t.like(listed.right.items[0], { requestCount: 4, errorCount: 2, lastUsedAtMs: 3_000 });
  t.is(errorRate(listed.right.items[0]!), 0.5);
  t.is(errorRate({ requestCount: 0, errorCount: 0 }), 0);
  t.is(errorRate({ requestCount: 3, errorCount: 1 }), 0.3333);
});

test('a wallet sees and deletes only its own keys', async (t) => {
  const id = memoryIdentity();
  const a = await id.createKey.execute({ wallet: alice, name: 'a' });
  await id.createKey.execute({ wallet: bob, name: 'b' });
  if (E.isLeft(a)) return t.fail();
  const listed = await id.listKeys.execute({ wallet: alice });
  t.deepEqual(E.isRight(listed) ? listed.right.items.map((k) => k.name) : [], ['a']);
  t.deepEqual(await id.deleteKey.execute({ wallet: bob, keyId: a.right.record.keyId }), E.left({ _tag: 'KeyNotFound', keyId: a.right.record.keyId }));
  t.deepEqual(await id.deleteKey.execute({ wallet: alice, keyId: a.right.record.keyId }), E.right(undefined));
});

test('a wallet has at most the configured number of keys', async (t) => {
  const id = memoryIdentity();
  const create = new CreateApiKey(id.keys, id.crypto, id.crypto, id.clock, 2);
  t.true(E.isRight(await create.execute({ wallet: alice, name: '1' })));
  t.true(E.isRight(await create.execute({ wallet: alice, name: '2' })));
  t.deepEqual(await create.execute({ wallet: alice, name: '3' }), E.left({ _tag: 'TooManyKeys', max: 2 }));
  t.true(E.isRight(await create.execute({ wallet: bob, name: '1' })));
});

test('usage counted while the store fails is kept for the next flush', async (t) => {
  const store = new MemoryKeyStore();
  let failing = true;
  const flaky = { addUsage: async (d: Parameters<MemoryKeyStore['addUsage']>[0]) => (failing ? Promise.reject(new Error('db down')) : store.addUsage(d)) };
  const recorder = new KeyUsageRecorder(flaky);
  await store.create({
    keyId: 'k1',
    wallet: alice,
    name: 'n',
    prefix: 'p',
    keyHash: 'h',
    createdAtMs: 0,
    lastUsedAtMs: null,
    requestCount: 0,
    errorCount: 0,
    scopes: null,
    robotIds: null,
    expiresAtMs: null,
    disabledAtMs: null,
  });
  recorder.record('k1', 200, 10);
  recorder.record('k1', 500, 20);
  await t.throwsAsync(recorder.flush());
  recorder.record('k1', 200, 30);
  failing = false;
  await recorder.flush();
  t.like(await store.findByHash('h'), { requestCount: 3, errorCount: 1, lastUsedAtMs: 30 });
  await recorder.flush();
  t.like(await store.findByHash('h'), { requestCount: 3 });
});
