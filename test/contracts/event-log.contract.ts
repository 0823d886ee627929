import test from 'ava';
import type { EventLog } from '../../src/application/ports/event-log.js';
import type { AnyEventType, NewEvent, StoredEvent } from '../../src/domain/events/event.js';
import type { DeclareTest } from '../support/databases.js';
import { WALLET_A, WALLET_B } from '../support/mothers.js';

let counter = 0;
/** An event as a store announces it; `data` tells events apart. */
export function anEvent(wallet: string, over: Partial<NewEvent> = {}): NewEvent {
  const n = ++counter;
  return { wallet, type: 'proof.accepted', atMs: 1_790_000_000_000 + n, data: { proof_id: `proof-${n}`, nested: { n, list: [1, 'two', null] } }, ...over };
}

const tags = (events: readonly NewEvent[]) => events.map((e) => (e.data as { proof_id?: string }).proof_id);
const ids = (events: readonly StoredEvent[]) => events.map((e) => e.id);

/** The EventLog contract; `make` returns an empty log. */
export function eventLogContract(name: string, make: () => Promise<EventLog>, testFn: DeclareTest = test): void {
  testFn(`${name}: appended events come back in order, with increasing ids and every member as stored`, async (t) => {
    const log = await make();
    const first = anEvent(WALLET_A, { logIndex: 7 });
    const second = anEvent(WALLET_A, { type: 'key.created' });
    await log.append([first, second]);
    const third = anEvent(WALLET_A);
    await log.append([third]);
    const page = await log.walletEvents(WALLET_A, 0, { limit: 10 });
    t.false(page.hasMore);
    t.deepEqual(tags(page.items), tags([first, second, third]));
    const [a, b, c] = page.items;
    t.true(a!.id < b!.id && b!.id < c!.id);
    t.deepEqual(a, { ...first, id: a!.id, logIndex: 7, target: null });
    t.deepEqual(b, { ...second, id: b!.id, logIndex: null, target: null });
  });

  testFn(`${name}: a page starts after the cursor, and says when more follow`, async (t) => {
    const log = await make();
    await log.append([anEvent(WALLET_A), anEvent(WALLET_A), anEvent(WALLET_A), anEvent(WALLET_A), anEvent(WALLET_A)]);
    const all = (await log.walletEvents(WALLET_A, 0, { limit: 10 })).items;
    const firstPage = await log.walletEvents(WALLET_A, 0, { limit: 2 });
    t.deepEqual(ids(firstPage.items), ids(all.slice(0, 2)));
    t.true(firstPage.hasMore);
    const rest = await log.walletEvents(WALLET_A, firstPage.items[1]!.id, { limit: 3 });
    t.deepEqual(ids(rest.items), ids(all.slice(2)));
    t.false(rest.hasMore);
    t.deepEqual((await log.walletEvents(WALLET_A, all[4]!.id, { limit: 3 })).items, []);
  });

  testFn(`${name}: newest first, before a cursor, pages back through a wallet's events`, async (t) => {
    const log = await make();
    await log.append([anEvent(WALLET_A), anEvent(WALLET_B), anEvent(WALLET_A), anEvent(WALLET_A), anEvent(WALLET_A)]);
    const ids = (await log.walletEvents(WALLET_A, 0, { limit: 10 })).items.map((e) => e.id);
    const first = await log.walletEvents(WALLET_A, 0, { limit: 2, order: 'desc' });
    t.deepEqual([first.items.map((e) => e.id), first.hasMore], [[ids[3], ids[2]], true]);
    const second = await log.walletEvents(WALLET_A, 0, { limit: 2, order: 'desc', beforeId: ids[2]! });
    t.deepEqual([second.items.map((e) => e.id), second.hasMore], [[ids[1], ids[0]], false]);
    const between = await log.walletEvents(WALLET_A, ids[0]!, { limit: 10, beforeId: ids[3]! });
    t.deepEqual(
      between.items.map((e) => e.id),
      [ids[1], ids[2]],
    );
  });

  testFn(`${name}: a type filter keeps only those types, and hasMore counts only matching events`, async (t) => {
    const log = await make();
    const key = anEvent(WALLET_A, { type: 'key.created' });
    const deleted = anEvent(WALLET_A, { type: 'key.deleted' });
    await log.append([anEvent(WALLET_A), key, anEvent(WALLET_A), deleted, anEvent(WALLET_A)]);
    const page = await log.walletEvents(WALLET_A, 0, { types: ['key.created', 'key.deleted'], limit: 5 });
    t.deepEqual(tags(page.items), tags([key, deleted]));
    t.false(page.hasMore);
    const one = await log.walletEvents(WALLET_A, 0, { types: ['key.created', 'key.deleted'], limit: 1 });
    t.is(one.items.length, 1);
    t.true(one.hasMore);
    t.is((await log.walletEvents(WALLET_A, 0, { types: [], limit: 10 })).items.length, 5, 'an empty filter is no filter');
    t.is((await log.walletEvents(WALLET_A, 0, { types: null, limit: 10 })).items.length, 5);
  });

  testFn(`${name}: a wallet never sees another wallet's events`, async (t) => {
    const log = await make();
    await log.append([anEvent(WALLET_B), anEvent(WALLET_A), anEvent(WALLET_B)]);
    const a = await log.walletEvents(WALLET_A, 0, { limit: 10 });
    t.deepEqual(
      a.items.map((e) => e.wallet),
      [WALLET_A],
    );
    t.false(a.hasMore);
    t.deepEqual(
      (await log.walletEvents(WALLET_B, 0, { limit: 10 })).items.map((e) => e.wallet),
      [WALLET_B, WALLET_B],
    );
    t.deepEqual((await log.walletEvents('nobody', 0, { limit: 10 })).items, []);
  });

  testFn(`${name}: an event for one endpoint is in allEvents but never in the wallet's events`, async (t) => {
    const log = await make();
    const targeted = anEvent(WALLET_A, { type: 'webhook.test' as AnyEventType, target: 'wh_1' });
    const plain = anEvent(WALLET_A);
    await log.append([targeted, plain]);
    const page = await log.walletEvents(WALLET_A, 0, { limit: 1 });
    t.deepEqual(tags(page.items), tags([plain]));
    t.false(page.hasMore, 'the targeted event does not count as more');
    const all = await log.allEvents(0, 10);
    t.deepEqual(
      all.map((e) => e.target),
      ['wh_1', null],
    );
  });

  testFn(`${name}: allEvents reads every wallet after the cursor, oldest first, at most limit`, async (t) => {
    const log = await make();
    await log.append([anEvent(WALLET_A), anEvent(WALLET_B), anEvent(WALLET_A), anEvent(WALLET_B)]);
    const all = await log.allEvents(0, 10);
    t.deepEqual(
      all.map((e) => e.wallet),
      [WALLET_A, WALLET_B, WALLET_A, WALLET_B],
    );
    t.deepEqual(ids(await log.allEvents(all[0]!.id, 2)), ids(all.slice(1, 3)));
    t.deepEqual(await log.allEvents(all[3]!.id, 10), []);
  });

  testFn(`${name}: byIds returns the events that exist, oldest first; lastId is the newest`, async (t) => {
    const log = await make();
    t.is(await log.lastId(), 0);
    await log.append([anEvent(WALLET_A), anEvent(WALLET_B), anEvent(WALLET_A)]);
    const all = await log.allEvents(0, 10);
    t.is(await log.lastId(), all[2]!.id);
    const found = await log.byIds([all[2]!.id, all[0]!.id, all[2]!.id + 1000]);
    t.deepEqual(ids(found), [all[0]!.id, all[2]!.id]);
    t.deepEqual(found[0], all[0]);
    t.deepEqual(await log.byIds([]), []);
  });

  testFn(`${name}: prune deletes the oldest events before the time, at most max at a time`, async (t) => {
    const log = await make();
    await log.append([1_000, 2_000, 3_000, 4_000].map((atMs) => anEvent(WALLET_A, { atMs })));
    const all = await log.allEvents(0, 10);
    t.is(await log.prune(4_000, 2), 2);
    t.deepEqual(ids(await log.allEvents(0, 10)), ids(all.slice(2)));
    t.is(await log.prune(4_000, 2), 1);
    t.is(await log.prune(4_000, 2), 0);
    t.deepEqual(ids(await log.allEvents(0, 10)), [all[3]!.id]);
    t.is(await log.lastId(), all[3]!.id);
    await log.append([anEvent(WALLET_A)]);
    t.true((await log.lastId()) > all[3]!.id, 'ids are never given twice');
  });
}
