import { hostname } from 'node:os';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import { ContainerModule } from 'inversify';
import { Counter, Histogram } from 'prom-client';
import { NodeIdentityCrypto } from '../adapters/crypto/node-identity-crypto.js';
import { EVENT_WEBHOOK, eventRoutes } from '../adapters/http/routes/event-routes.js';
import { webhookRoutes } from '../adapters/http/routes/webhook-routes.js';
import { KnexDeliveryQueue } from '../adapters/sql/knex-delivery-queue.js';
import { KnexDeviceAnnouncements } from '../adapters/sql/knex-device-announcements.js';
import { KnexEventLog } from '../adapters/sql/knex-event-log.js';
import { KnexJobLease } from '../adapters/sql/knex-job-lease.js';
import { KnexWebhookStore } from '../adapters/sql/knex-webhook-store.js';
import { hostProblem } from '../adapters/webhooks/address-guard.js';
import { NodeWebhookTransport } from '../adapters/webhooks/node-webhook-transport.js';
import { ThreadedWebhookTransport } from '../adapters/webhooks/threaded-webhook-transport.js';
import { signatureHeader } from '../adapters/webhooks/standard-webhook-signer.js';
import { EventLoopLoad } from '../adapters/event-loop-load.js';
import { DeliveryPacing } from '../application/events/delivery-pacing.js';
import { AnnounceLoggedProofs } from '../application/events/announce-logged-proofs.js';
import { CreateWebhook } from '../application/events/create-webhook.js';
import { DeliverWebhooks } from '../application/events/deliver-webhooks.js';
import { EventBuffer } from '../application/events/event-buffer.js';
import { EventHub } from '../application/events/event-hub.js';
import { FanOutEvents } from '../application/events/fan-out-events.js';
import { FollowEvents } from '../application/events/follow-events.js';
import { ListEvents } from '../application/events/list-events.js';
import { PruneEvents } from '../application/events/prune-events.js';
import { ReadWebhooks, WebhookDeliveries } from '../application/events/read-webhooks.js';
import { EventRenderer, TreeLoggedProofs } from '../application/events/render-event.js';
import { RotateWebhookSecret } from '../application/events/rotate-webhook-secret.js';
import { SendTestEvent } from '../application/events/send-test-event.js';
import { SweepDeviceStatuses } from '../application/events/sweep-device-statuses.js';
import { UpdateWebhook } from '../application/events/update-webhook.js';
import { helperNice } from './core.module.js';
import { CORE } from './core.tokens.js';
import { EventJobs } from './event-jobs.js';
import { EVENTS } from './events.tokens.js';
import { LOG } from './log.tokens.js';
import { OPERATIONS } from './operations.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

const HOUR_MS = 3_600_000;
/** While the event loop is saturated, deliveries are claimed at most this often. */
const YIELD_AT_MOST_MS = 1_000;

const module = new ContainerModule(({ bind }) => {
  provide(bind, EVENTS.Log, [CORE.Database], (database) => new KnexEventLog(database));
  provide(bind, EVENTS.Webhooks, [CORE.Database], (database) => new KnexWebhookStore(database));
  provide(bind, EVENTS.Queue, [CORE.Database], (database) => new KnexDeliveryQueue(database));
  provide(bind, EVENTS.Lease, [CORE.Database], (database) => new KnexJobLease(database));
  provide(bind, EVENTS.Devices, [CORE.Database], (database) => new KnexDeviceAnnouncements(database));
  provide(bind, EVENTS.AddressPolicy, [CORE.Config], (config) => ({ hostProblem: (host: string) => hostProblem(host, config.webhookAllowPrivate) }));
  provide(bind, EVENTS.Transport, [CORE.Config, CORE.Lifecycle], (config, lifecycle) => {
    const options = {
      timeoutMs: config.webhookTimeoutMs,
      allowPrivate: config.webhookAllowPrivate,
      userAgent: 'proof-registry-webhooks/1',
      maxSocketsPerHost: config.webhookPerEndpoint,
    };
    // Sending off the event loop, below it as the other helpers are (threaded-webhook-transport.ts).
    const transport = config.webhookSenderThread
      ? new ThreadedWebhookTransport(options, { niceIncrement: helperNice(config) })
      : new NodeWebhookTransport(options);
    lifecycle.onStop(() => transport.close());
    return transport;
  });
  provide(bind, EVENTS.Signer, [], () => ({ header: signatureHeader }));
  provide(
    bind,
    EVENTS.Renderer,
    [LOG.Tree, LOG.Checkpoints, LOG.Sha256],
    (tree, checkpoints, sha) => new EventRenderer(new TreeLoggedProofs(tree, checkpoints, sha)),
  );
  provide(bind, EVENTS.Hub, [EVENTS.Log], (log) => new EventHub(log));
  provide(bind, EVENTS.Closing, [CORE.Lifecycle], (lifecycle) => lifecycle.closing);

  // Refusals are announced a few times a second, in one write each time.
  provide(bind, EVENTS.Rejections, [EVENTS.Log, CORE.Lifecycle], (log, lifecycle) => {
    const buffer = new EventBuffer(log);
    lifecycle.flushEvery(250, () => buffer.flush(), 'announcing refused submissions failed; will retry');
    return buffer;
  });

  provide(
    bind,
    EVENTS.Deliver,
    [EVENTS.Queue, EVENTS.Webhooks, EVENTS.Transport, EVENTS.Signer, EVENTS.Renderer, CORE.Clock, CORE.Config, CORE.Metrics],
    (queue, endpoints, transport, signer, renderer, clock, config, metrics) => {
      const attempts = new Counter({
        name: 'webhook_attempts_total',
        help: 'Webhook delivery attempts by outcome (succeeded, retry, gone, failed: no attempt left).',
        labelNames: ['outcome'],
        registers: [metrics.registry],
      });
      const latency = new Histogram({
        name: 'webhook_attempt_seconds',
        help: 'Time a receiver took to answer a delivery attempt.',
        buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15],
        registers: [metrics.registry],
      });
      const lag = new Histogram({
        name: 'webhook_delivery_lag_seconds',
        help: 'From an event to its successful delivery.',
        buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 30, 300, 3600],
        registers: [metrics.registry],
      });
      return new DeliverWebhooks(
        queue,
        endpoints,
        transport,
        signer,
        renderer,
        clock,
        Math.random,
        {
          concurrency: config.webhookConcurrency,
          perEndpoint: config.webhookPerEndpoint,
          // The attempt's deadline and time to record it: only a claim of an instance that died runs out.
          lockMs: config.webhookTimeoutMs + Math.max(5_000, 10 * config.eventPollMs),
          disableAfterMs: config.webhookDisableAfterS * 1000,
        },
        (r) => {
          attempts.inc({ outcome: r.verdict });
          latency.observe(r.latencyMs / 1000);
          if (r.verdict === 'succeeded' && r.eventAtMs !== null) lag.observe(Math.max(0, clock.nowMs() - r.eventAtMs) / 1000);
        },
      );
    },
  );

  provide(
    bind,
    EVENTS.Jobs,
    [
      EVENTS.Lease,
      EVENTS.Log,
      EVENTS.Webhooks,
      EVENTS.Queue,
      EVENTS.Devices,
      EVENTS.Deliver,
      EVENTS.Hub,
      LOG.Checkpoints,
      CORE.Clock,
      CORE.Config,
      CORE.Logger,
      CORE.Lifecycle,
    ],
    (lease, log, endpoints, queue, devices, deliver, hub, checkpoints, clock, config, logger, lifecycle) => {
      const load = new EventLoopLoad();
      const jobs = new EventJobs({
        lease,
        holder: `${hostname()}:${path.resolve(config.dataDir)}`,
        fanOut: new FanOutEvents(log, endpoints, queue, clock),
        announce: new AnnounceLoggedProofs(log, checkpoints, clock),
        sweep: new SweepDeviceStatuses(devices, clock, {
          onlineWindowMs: config.deviceOnlineWindowS * 1000,
          offlineAfterMs: config.deviceOfflineAfterS * 1000,
        }),
        prune: new PruneEvents(log, queue, clock, config.eventRetentionDays),
        deliver,
        // CPU time, not the registry's clock (a test's may stand still): pacing follows the machine.
        pacing: new DeliveryPacing(load, { nowMs: () => performance.now() }, { yieldAbove: config.webhookYieldAbove, atLeastEveryMs: YIELD_AT_MOST_MS }),
        hub,
        clock,
        logger,
        pollMs: config.eventPollMs,
        sweepMs: config.deviceSweepMs,
        pruneMs: HOUR_MS,
      });
      jobs.start();
      lifecycle.onStop(async () => {
        await jobs.stop();
        load.close();
      });
      return jobs;
    },
  );

  provide(bind, EVENTS.ListEvents, [EVENTS.Log, EVENTS.Renderer], (log, renderer) => new ListEvents(log, renderer));
  provide(bind, EVENTS.FollowEvents, [EVENTS.Log, EVENTS.Hub, EVENTS.Renderer], (log, hub, renderer) => new FollowEvents(log, hub, renderer));
  const random = new NodeIdentityCrypto();
  provide(
    bind,
    EVENTS.CreateWebhook,
    [EVENTS.Webhooks, EVENTS.AddressPolicy, CORE.Clock],
    (store, policy, clock) => new CreateWebhook(store, policy, random, clock),
  );
  provide(bind, EVENTS.UpdateWebhook, [EVENTS.Webhooks, EVENTS.AddressPolicy, CORE.Clock], (store, policy, clock) => new UpdateWebhook(store, policy, clock));
  provide(bind, EVENTS.RotateSecret, [EVENTS.Webhooks, CORE.Clock], (store, clock) => new RotateWebhookSecret(store, random, clock));
  provide(bind, EVENTS.ReadWebhooks, [EVENTS.Webhooks], (store) => new ReadWebhooks(store));
  provide(bind, EVENTS.Deliveries, [EVENTS.Queue], (queue) => new WebhookDeliveries(queue));
  provide(bind, EVENTS.SendTest, [EVENTS.Webhooks, EVENTS.Log, CORE.Clock], (store, log, clock) => new SendTestEvent(store, log, clock));

  provide(
    bind,
    EVENTS.Routes,
    [
      EVENTS.Jobs,
      EVENTS.ListEvents,
      EVENTS.FollowEvents,
      EVENTS.Closing,
      EVENTS.CreateWebhook,
      EVENTS.UpdateWebhook,
      EVENTS.RotateSecret,
      EVENTS.ReadWebhooks,
      EVENTS.Deliveries,
      EVENTS.SendTest,
      CORE.Clock,
      OPERATIONS.Catalog,
    ],
    (_jobs, list, follow, closing, create, update, rotate, read, deliveries, test, clock, catalog) => {
      catalog.addWebhook(EVENT_WEBHOOK);
      return [...eventRoutes({ list, follow, closing, heartbeatMs: 15_000 }), ...webhookRoutes({ create, update, rotate, read, deliveries, test, clock })];
    },
  );
});

/** Events: the outbox every change writes to, the feed and streams that read it, webhooks that deliver it. */
export const eventsSlice: Slice = { name: 'events', module, routes: EVENTS.Routes };
