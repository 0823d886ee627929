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
import { sqliteFixture } from '../../support/databases.js';

// A fresh migrated SQLite file per test: the production path (WAL, foreign keys on, a separate reader).
const sqlite = sqliteFixture(test);
const queueOn = (db: Database) => ({ events: new KnexEventLog(db), endpoints: new KnexWebhookStore(db), queue: new KnexDeliveryQueue(db) });

eventLogContract('sqlite', async () => new KnexEventLog(await sqlite.fresh()));
webhookStoreContract('sqlite', async () => new KnexWebhookStore(await sqlite.fresh()));
jobLeaseContract('sqlite', async () => new KnexJobLease(await sqlite.fresh()));
for (const contract of [deliveryQueueClaimContract, deliveryQueueRecordContract, deliveryQueueHistoryContract])
  contract('sqlite', async () => queueOn(await sqlite.fresh()));
