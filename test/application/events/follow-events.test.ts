import test from 'ava';
import * as E from 'fp-ts/lib/Either.js';
import { MemoryEventLog } from '../../../src/adapters/memory/memory-event-log.js';
import { EventHub } from '../../../src/application/events/event-hub.js';
import { FollowEvents } from '../../../src/application/events/follow-events.js';
import { ListEvents } from '../../../src/application/events/list-events.js';
import { EventRenderer } from '../../../src/application/events/render-event.js';
import { keyCreated } from '../../../src/domain/events/announcements.js';
import { eventId, type EventBody } from '../../../src/domain/events/event.js';
import { WALLET_A, WALLET_B } from '../../support/mothers.js';

const key = (wallet: string, n: number) =>
  keyCreated({
    keyId: `key_${n}`,
    wallet,
    name: `k${n}`,
    prefix: 'pr_live_ab',
    createdAtMs: 1_790_000_000_000 + n,
    scopes: null,
    robotIds: null,
    expiresAtMs: null,
    disabledAtMs: null,
  });

function world() {
  const log = new MemoryEventLog();
  const hub = new EventHub(log, 3);
  const renderer = new EventRenderer({ inclusion: async () => null });
  return { log, hub, follow: new FollowEvents(log, hub, renderer), list: new ListEvents(log, renderer) };
}

/** Takes `n` events from a stream, polling the hub between reads as the instance's loop does. */
async function take(stream: AsyncIterator<EventBody>, hub: EventHub, n: number): Promise<EventBody[]> {
  const out: EventBody[] = [];
  while (out.length < n) {
    const next = stream.next();
    for (let i = 0; i < 5; i++) await hub.poll();
    out.push((await next).value as EventBody);
  }
  return out;
}

test("a stream resumed after an id gets what came after it from the log, then new events as they are committed, each once and only its wallet's", async (t) => {
  const w = world();
  await w.log.append([key(WALLET_A, 1), key(WALLET_B, 2), key(WALLET_A, 3)]);
  const controller = new AbortController();
  const opened = await w.follow.open({ wallet: WALLET_A, after: eventId(1), signal: controller.signal });
  if (E.isLeft(opened)) return t.fail();
  const stream = opened.right.events[Symbol.asyncIterator]();
  t.deepEqual(
    (await take(stream, w.hub, 1)).map((e) => e.id),
    [eventId(3)],
  );
  await w.log.append([key(WALLET_B, 4), key(WALLET_A, 5), key(WALLET_A, 6)]);
  t.deepEqual(
    (await take(stream, w.hub, 2)).map((e) => e.id),
    [eventId(5), eventId(6)],
  );
  controller.abort();
  t.true((await stream.next()).done, 'it ends when told to stop');
});

test("a reader slower than its wallet's events is not buffered without end: it reads the log again from its last id, missing nothing", async (t) => {
  const w = world();
  const controller = new AbortController();
  const opened = await w.follow.open({ wallet: WALLET_A, signal: controller.signal });
  if (E.isLeft(opened)) return t.fail();
  const stream = opened.right.events[Symbol.asyncIterator]();
  const first = stream.next();
  await w.log.append([key(WALLET_A, 0)]);
  await w.hub.poll();
  t.is((await first).value.id, eventId(1));
  // 2,100 events while the reader reads nothing: past what a stream holds for it.
  for (let i = 0; i < 21; i++) await w.log.append(Array.from({ length: 100 }, (_, j) => key(WALLET_A, i * 100 + j + 1)));
  for (let i = 0; i < 800; i++) await w.hub.poll();
  const rest = await take(stream, w.hub, 2100);
  t.deepEqual(
    rest.map((e) => e.id),
    Array.from({ length: 2100 }, (_, i) => eventId(i + 2)),
  );
  controller.abort();
});

test('the feed pages by cursor; an empty page still says where to poll from; bad cursors and types are refused', async (t) => {
  const w = world();
  await w.log.append([key(WALLET_A, 1), key(WALLET_B, 2), key(WALLET_A, 3), key(WALLET_B, 4)]);
  const page = await w.list.execute({ wallet: WALLET_A, limit: 1 });
  if (E.isLeft(page)) return t.fail();
  t.deepEqual([page.right.items.map((e) => e.id), page.right.nextCursor, page.right.hasMore], [[eventId(1)], eventId(1), true]);
  const next = await w.list.execute({ wallet: WALLET_A, after: eventId(1), limit: 5 });
  if (E.isLeft(next)) return t.fail();
  t.deepEqual([next.right.items.map((e) => e.id), next.right.hasMore], [[eventId(3)], false]);
  const empty = await w.list.execute({ wallet: WALLET_A, after: eventId(3), limit: 5 });
  if (E.isLeft(empty)) return t.fail();
  t.deepEqual([empty.right.items, empty.right.nextCursor], [[], eventId(4)], "past the other wallet's event too");
  t.like(await w.list.execute({ wallet: WALLET_A, after: 'evt_x', limit: 5 }), { left: { _tag: 'InvalidEventQuery', field: 'after' } });
  t.like(await w.list.execute({ wallet: WALLET_A, types: 'key.created,key.lost', limit: 5 }), { left: { _tag: 'InvalidEventQuery', field: 'types' } });
});

test('a stream opened without an id starts now: it says where (a resume point), and sends nothing from before it', async (t) => {
  const w = world();
  await w.hub.position(); // the hub started long ago, and has not polled since
  await w.log.append([key(WALLET_A, 1), key(WALLET_A, 2)]);
  const opened = await w.follow.open({ wallet: WALLET_A, signal: new AbortController().signal });
  if (E.isLeft(opened)) return t.fail();
  t.is(opened.right.startId, eventId(2));
  const stream = opened.right.events[Symbol.asyncIterator]();
  await w.log.append([key(WALLET_A, 3)]);
  t.deepEqual(
    (await take(stream, w.hub, 1)).map((e) => e.id),
    [eventId(3)],
  );
});

test('while nobody listens the hub skips to the end of the log, unless a listener came while it looked', async (t) => {
  const log = new MemoryEventLog();
  const hub = new EventHub(log);
  await hub.position();
  await log.append([key(WALLET_A, 1), key(WALLET_A, 2)]);
  await hub.skipAhead();
  t.is(await hub.position(), 2, 'nobody listened: the past is not read');
  // A stream opens (and closes) while the hub reads the log's end: the hub must not move past what it has not handed out.
  class WatchedLog extends MemoryEventLog {
    during: (() => void) | null = null;
    override async lastId(): Promise<number> {
      const id = await super.lastId();
      this.during?.();
      return id;
    }
  }
  const watched = new WatchedLog();
  const racing = new EventHub(watched);
  await racing.position();
  await watched.append([key(WALLET_A, 1)]);
  watched.during = () => racing.listen(WALLET_A, () => undefined)();
  await racing.skipAhead();
  t.is(await racing.position(), 0, 'the move that raced a listen is dropped');
});

test('the feed newest first pages back with before, and says when the oldest kept is reached', async (t) => {
  const w = world();
  await w.log.append([key(WALLET_A, 1), key(WALLET_B, 2), key(WALLET_A, 3), key(WALLET_A, 4)]);
  const recent = await w.list.execute({ wallet: WALLET_A, order: 'desc', limit: 2 });
  if (E.isLeft(recent)) return t.fail();
  t.deepEqual([recent.right.items.map((e) => e.id), recent.right.nextCursor, recent.right.hasMore], [[eventId(4), eventId(3)], eventId(3), true]);
  const older = await w.list.execute({ wallet: WALLET_A, order: 'desc', before: recent.right.nextCursor!, limit: 2 });
  if (E.isLeft(older)) return t.fail();
  t.deepEqual([older.right.items.map((e) => e.id), older.right.nextCursor, older.right.hasMore], [[eventId(1)], null, false]);
  t.like(await w.list.execute({ wallet: WALLET_A, order: 'desc', before: 'nope', limit: 2 }), { left: { _tag: 'InvalidEventQuery', field: 'before' } });
});
