import { MemoryDeliveryQueue } from '../../../src/adapters/memory/memory-delivery-queue.js';
import { MemoryEventLog } from '../../../src/adapters/memory/memory-event-log.js';
import { MemoryJobLease } from '../../../src/adapters/memory/memory-job-lease.js';
import { MemoryWebhookStore } from '../../../src/adapters/memory/memory-webhook-store.js';
import { deliveryQueueClaimContract } from '../../contracts/delivery-queue-claim.contract.js';
import { deliveryQueueHistoryContract } from '../../contracts/delivery-queue-history.contract.js';
import { deliveryQueueRecordContract } from '../../contracts/delivery-queue-record.contract.js';
import { eventLogContract } from '../../contracts/event-log.contract.js';
import { jobLeaseContract } from '../../contracts/job-lease.contract.js';
import { webhookStoreContract } from '../../contracts/webhook-store.contract.js';

eventLogContract('memory', async () => new MemoryEventLog());
webhookStoreContract('memory', async () => new MemoryWebhookStore());
jobLeaseContract('memory', async () => new MemoryJobLease());
for (const contract of [deliveryQueueClaimContract, deliveryQueueRecordContract, deliveryQueueHistoryContract])
  contract('memory', async () => {
    const events = new MemoryEventLog();
    const endpoints = new MemoryWebhookStore();
    return { events, endpoints, queue: new MemoryDeliveryQueue(endpoints, events) };
  });
