import test from 'ava';
import { readInSlots, Slots } from '../../../src/adapters/http/slots.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('each page of a streamed answer is read in a slot, given back before the page is sent', async (t) => {
  const slots = new Slots({ slots: 1, queue: 4, queuePerWallet: 4 });
  const heldWhileRead: number[] = [];
  async function* pages() {
    for (const page of ['a', 'b', 'c']) {
      heldWhileRead.push(slots.inUse);
      yield page;
    }
  }
  const got: string[] = [];
  for await (const page of readInSlots(pages(), () => slots.acquire('w', { admitted: true }))) {
    t.is(slots.inUse, 0, `no slot held while page ${page} is sent`);
    got.push(page);
  }
  t.deepEqual(got, ['a', 'b', 'c']);
  t.deepEqual(heldWhileRead, [1, 1, 1]);
  t.is(slots.inUse, 0);
});

test('a page waits for the slot another read holds, and goes once it is free', async (t) => {
  const slots = new Slots({ slots: 1, queue: 4, queuePerWallet: 4 });
  const other = await slots.acquire('someone');
  const stream = readInSlots(
    (async function* () {
      yield 'page';
    })(),
    () => slots.acquire('w', { admitted: true }),
  );
  let read = false;
  const next = stream.next().then((r) => ((read = true), r));
  await tick();
  t.false(read, 'waiting for the slot');
  other();
  t.deepEqual(await next, { value: 'page', done: false });
});

test('a read already answering waits its turn however full the queue is; a new one is refused', async (t) => {
  const slots = new Slots({ slots: 1, queue: 0, queuePerWallet: 0 });
  const held = await slots.acquire('a');
  await t.throwsAsync(slots.acquire('b'), { message: /being read at once/ });
  const admitted = slots.acquire('b', { admitted: true });
  held();
  const release = await admitted;
  t.is(slots.inUse, 1);
  release();
  t.is(slots.inUse, 0);
});
