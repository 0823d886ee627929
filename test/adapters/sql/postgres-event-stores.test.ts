import test from 'ava';
import type { Database } from '../../../src/adapters/sql/database.js';
import { KnexDeliveryQueue } from '../../../src/adapters/sql/knex-delivery-queue.js';
import { KnexEventLog } from '../../../src/adapters/sql/knex-event-log.js';
import { KnexJobLease } from '../../../src/adapters/sql/knex-job-lease.js';
import { KnexWebhookStore } from '../../../src/adapters/sql/knex-webhook-store.js';
import { deliveryQueueClaimContract } from '../../contracts/delivery-queue-claim.contract.js';
import { deliveryQueueHistoryContract } from '../../contracts/delivery-queue-history.contract.js';
import { deliveryQueueRecordContract } from '../../contracts/delivery-queue-record.contract.js';
import { eventLogContract } from '../../contracts/event-log.contract.js';
import { jobLeaseContract } from '../../contracts/job-lease.contract.js';
import { webhookStoreContract } from '../../contracts/webhook-store.contract.js';
import { postgresFixture } from '../../support/databases.js';

// One schema for this file, emptied before each test, so the tests run serially. No skip when
// PostgreSQL is down: the fixture's `before` hook fails, and with it every test here.
const pg = postgresFixture(test, 'event_stores');
const queueOn = (db: Database) => ({ events: new KnexEventLog(db), endpoints: new KnexWebhookStore(db), queue: new KnexDeliveryQueue(db) });

eventLogContract('postgres', async () => new KnexEventLog(await pg.fresh()), test.serial);
webhookStoreContract('postgres', async () => new KnexWebhookStore(await pg.fresh()), test.serial);
jobLeaseContract('postgres', async () => new KnexJobLease(await pg.fresh()), test.serial);
for (const contract of [deliveryQueueClaimContract, deliveryQueueRecordContract, deliveryQueueHistoryContract])
  contract('postgres', async () => queueOn(await pg.fresh()), test.serial);
