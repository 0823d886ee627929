import type { AnyRoute } from '../adapters/http/route.js';
import type { CreateWebhook } from '../application/events/create-webhook.js';
import type { DeliverWebhooks } from '../application/events/deliver-webhooks.js';
import type { EventBuffer } from '../application/events/event-buffer.js';
import type { EventHub } from '../application/events/event-hub.js';
import type { FollowEvents } from '../application/events/follow-events.js';
import type { ListEvents } from '../application/events/list-events.js';
import type { ReadWebhooks, WebhookDeliveries } from '../application/events/read-webhooks.js';
import type { EventRenderer } from '../application/events/render-event.js';
import type { RotateWebhookSecret } from '../application/events/rotate-webhook-secret.js';
import type { SendTestEvent } from '../application/events/send-test-event.js';
import type { UpdateWebhook } from '../application/events/update-webhook.js';
import type { AddressPolicy } from '../application/ports/address-policy.js';
import type { DeliveryQueue } from '../application/ports/delivery-queue.js';
import type { DeviceAnnouncements } from '../application/ports/device-announcements.js';
import type { EventLog } from '../application/ports/event-log.js';
import type { JobLease } from '../application/ports/job-lease.js';
import type { WebhookSigner } from '../application/ports/webhook-signer.js';
import type { WebhookStore } from '../application/ports/webhook-store.js';
import type { WebhookTransport } from '../application/ports/webhook-transport.js';
import type { EventJobs } from './event-jobs.js';
import { token } from './token.js';

/** The events slice: the outbox, streams and feed, webhooks and their delivery, and the jobs that keep them going. */
export const EVENTS = {
  Log: token<EventLog>('events.Log'),
  Webhooks: token<WebhookStore>('events.Webhooks'),
  Queue: token<DeliveryQueue>('events.Queue'),
  Lease: token<JobLease>('events.Lease'),
  Devices: token<DeviceAnnouncements>('events.Devices'),
  AddressPolicy: token<AddressPolicy>('events.AddressPolicy'),
  Transport: token<WebhookTransport>('events.Transport'),
  Signer: token<WebhookSigner>('events.Signer'),
  Renderer: token<EventRenderer>('events.Renderer'),
  Hub: token<EventHub>('events.Hub'),
  /** Refused submissions, announced in batches (`proof.rejected`); the proofs slice adds to it. */
  Rejections: token<EventBuffer>('events.Rejections'),
  Deliver: token<DeliverWebhooks>('events.Deliver'),
  /** The background jobs, running from the time they are made (see event-jobs.ts). */
  Jobs: token<EventJobs>('events.Jobs'),
  /** Aborted as the registry begins to stop, so streams end before the server waits for open requests. */
  Closing: token<AbortSignal>('events.Closing'),
  ListEvents: token<ListEvents>('events.ListEvents'),
  FollowEvents: token<FollowEvents>('events.FollowEvents'),
  CreateWebhook: token<CreateWebhook>('events.CreateWebhook'),
  UpdateWebhook: token<UpdateWebhook>('events.UpdateWebhook'),
  RotateSecret: token<RotateWebhookSecret>('events.RotateSecret'),
  ReadWebhooks: token<ReadWebhooks>('events.ReadWebhooks'),
  Deliveries: token<WebhookDeliveries>('events.Deliveries'),
  SendTest: token<SendTestEvent>('events.SendTest'),
  Routes: token<readonly AnyRoute[]>('events.Routes'),
} as const;
