import test from 'ava';
import { openDatabase, type Database } from '../../../src/adapters/sql/database.js';
import { insertEvents, lockEvents } from '../../../src/adapters/sql/event-rows.js';
import { KnexDeliveryQueue } from '../../../src/adapters/sql/knex-delivery-queue.js';
import { KnexEventLog } from '../../../src/adapters/sql/knex-event-log.js';
import { KnexWebhookStore } from '../../../src/adapters/sql/knex-webhook-store.js';
import type { StoredEvent } from '../../../src/domain/events/event.js';
import { MAX_ENDPOINTS_PER_WALLET } from '../../../src/domain/events/webhook.js';
import { anEvent } from '../../contracts/event-log.contract.js';
import { anEndpoint } from '../../contracts/webhook-store.contract.js';
import { postgresFixture, TEST_POSTGRES_URL } from '../../support/databases.js';
import { WALLET_A } from '../../support/mothers.js';

// What only PostgreSQL has to get right: several instances (each its own pool) at once.
const pg = postgresFixture(test, 'event_order');

/** A second instance on the same schema: its own pools, as another process would have. */
async function secondInstance(t: { teardown(fn: () => Promise<void>): void }, db: Database): Promise<Database> {
  const other = await openDatabase(TEST_POSTGRES_URL, { schema: db.schema!, poolSize: 5 });
  t.teardown(() => other.close());
  return other;
}

test.serial('two instances claiming at once never get the same delivery', async (t) => {
  const db = await pg.fresh();
  const other = await secondInstance(t, db);
  const store = new KnexWebhookStore(db);
  const log = new KnexEventLog(db);
  // Three endpoints: the instances meet on the same endpoints as well as on different ones.
  const endpoints = [anEndpoint(WALLET_A), anEndpoint(WALLET_A), anEndpoint(WALLET_A)];
  for (const e of endpoints) await store.create(e, MAX_ENDPOINTS_PER_WALLET);
  await log.append(Array.from({ length: 17 }, () => anEvent(WALLET_A)));
  const events = await log.allEvents(0, 100);
  const pairs = endpoints.flatMap((e) => events.map((event) => ({ endpointId: e.endpointId, event })));
  const queues = [new KnexDeliveryQueue(db), new KnexDeliveryQueue(other)];
  t.true(await queues[0]!.enqueue(pairs.slice(0, 50), { name: 'webhooks', from: 0, to: events[16]!.id }, 1_000));

  const claims: number[] = [];
  for (let round = 0; round < 50; round++) {
    // Several claims in flight from each instance, all at the same moment.
    const got = await Promise.all([...queues, ...queues, ...queues].map((q) => q.claim(2_000, 60_000, 10, 50)));
    const ids = got.flat().map((c) => c.delivery.deliveryId);
    if (ids.length === 0) break;
    claims.push(...ids);
  }
  t.is(claims.length, 50, 'every delivery claimed');
  t.is(new Set(claims).size, 50, 'none claimed twice');
});

test.serial('event ids follow commit order: a reader never sees a later event before an earlier one', async (t) => {
  const db = await pg.fresh();
  const other = await secondInstance(t, db);
  const reader = new KnexEventLog(other);
  const first = anEvent(WALLET_A, { data: { which: 'A' } });
  const second = anEvent(WALLET_A, { data: { which: 'B' } });
  const which = (events: readonly StoredEvent[]) => events.map((e) => (e.data as { which: string }).which);

  let aOpen = true;
  let aLocked!: () => void;
  const locked = new Promise<void>((resolve) => (aLocked = resolve));
  let seenWhileOpen = 0;
  const polls: string[][] = [];
  const a = db.knex.transaction(async (trx) => {
    await lockEvents(trx);
    aLocked();
    // B starts meanwhile; without the lock its id would come first, and it would commit first.
    await trx.raw('select pg_sleep(0.3)');
    await insertEvents(trx, [first]);
    await trx.raw('select pg_sleep(0.3)');
  });
  await locked;
  const b = new KnexEventLog(other).append([second]);
  const settled = Promise.all([a.finally(() => (aOpen = false)), b]);
  let done = false;
  void settled.finally(() => (done = true));
  while (!done) {
    const open = aOpen;
    polls.push(which(await reader.allEvents(0, 10)));
    if (open) seenWhileOpen++;
  }
  await settled;
  polls.push(which(await reader.allEvents(0, 10)));

  t.true(seenWhileOpen > 0, 'the reader polled while A was open');
  for (const seen of polls) t.true(seen.length === 0 || seen[0] === 'A', `seen ${JSON.stringify(seen)}`);
  const all = await reader.allEvents(0, 10);
  t.deepEqual(which(all), ['A', 'B']);
  t.true(all[1]!.id > all[0]!.id);
});
