import test from 'ava';
import { HttpError } from '../../../src/adapters/http/http-error.js';
import { Slots } from '../../../src/adapters/http/slots.js';

/** Acquires for `wallet` and records, once granted, the order in which the grants came. */
function waitFor(slots: Slots, wallet: string, order: string[], label = wallet) {
  return slots.acquire(wallet).then((release) => {
    order.push(label);
    return release;
  });
}

test('a freed slot goes to the next wallet in turn, not to the wallet with the most requests waiting', async (t) => {
  const slots = new Slots({ slots: 1, queue: 64, queuePerWallet: 8 });
  const order: string[] = [];
  const first = await slots.acquire('A');
  // Wallet A queues four reads before wallet B queues one.
  const waiting = [1, 2, 3, 4].map((i) => waitFor(slots, 'A', order, `A${i}`));
  waiting.push(waitFor(slots, 'B', order, 'B1'));
  t.is(slots.queued, 5);
  first();
  for (const pending of waiting) {
    // Release each grant as soon as it comes, so the next one can follow.
    void pending.then((release) => setImmediate(release));
  }
  await Promise.all(waiting);
  t.deepEqual(order, ['A1', 'B1', 'A2', 'A3', 'A4']);
  await new Promise((resolve) => setImmediate(resolve));
  t.is(slots.inUse, 0);
});

test('one wallet may keep only its share of the queue waiting: 429 for it, and another wallet still gets in', async (t) => {
  const slots = new Slots({ slots: 1, queue: 64, queuePerWallet: 2 });
  const held = await slots.acquire('A');
  const a = [slots.acquire('A'), slots.acquire('A')];
  const refused = await t.throwsAsync(slots.acquire('A'), { instanceOf: HttpError });
  t.is(refused.status, 429);
  t.is(refused.headers['Retry-After'], '1');
  const order: string[] = [];
  const b = slots.acquire('B');
  t.is(slots.queued, 3);
  const granted = [...a, b].map((p, i) => p.then((release) => (order.push(i === 2 ? 'B' : 'A'), setImmediate(release))));
  held();
  await Promise.all(granted);
  // B waited behind both of A's, yet was served second: wallets take turns.
  t.deepEqual(order, ['A', 'B', 'A']);
});

test('past the queue of all wallets together, 503 busy', async (t) => {
  const slots = new Slots({ slots: 1, queue: 2, queuePerWallet: 8 });
  const held = await slots.acquire('A');
  const waiting = [slots.acquire('B'), slots.acquire('C')];
  const refused = await t.throwsAsync(slots.acquire('D'), { instanceOf: HttpError });
  t.is(refused.status, 503);
  t.is(refused.extra.code, 'busy');
  held();
  for (const p of waiting) (await p)();
  t.is(slots.inUse, 0);
  t.is(slots.queued, 0);
});
