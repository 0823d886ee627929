import type { CreateWebhook } from '../../../application/events/create-webhook.js';
import type { ReadWebhooks, WebhookDeliveries } from '../../../application/events/read-webhooks.js';
import type { RotateWebhookSecret } from '../../../application/events/rotate-webhook-secret.js';
import type { SendTestEvent } from '../../../application/events/send-test-event.js';
import type { UpdateWebhook } from '../../../application/events/update-webhook.js';
import type { Clock } from '../../../application/ports/clock.js';
import * as c from '../codecs/webhook.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED } from './error-responses.js';
import { eventErrors as errors, eventProblem } from './event-problems.js';
import { attemptJson, deliveryCursorOf, deliveryJson, deliveryIdOf, endpointJson } from './webhook-json.js';

export interface WebhookRouteDeps {
  readonly create: CreateWebhook;
  readonly update: UpdateWebhook;
  readonly rotate: RotateWebhookSecret;
  readonly read: ReadWebhooks;
  readonly deliveries: WebhookDeliveries;
  readonly test: SendTestEvent;
  readonly clock: Clock;
}

const base = { tag: 'webhooks', auth: 'jwt' } as const;
const NO_STORE = { 'Cache-Control': 'no-store' };

export function webhookRoutes(d: WebhookRouteDeps): AnyRoute[] {
  return [
    route({
      ...base,
      method: 'post',
      path: '/v1/webhooks',
      operationId: 'createWebhook',
      summary: 'Add a webhook endpoint',
      description:
        'Deliveries follow Standard Webhooks v1: headers webhook-id (the event id, the same on every retry), webhook-timestamp and webhook-signature (v1,<base64 HMAC-SHA256 of "id.timestamp.body"> with the secret). The secret (whsec_…) is in this answer only. At most 20 endpoints per wallet.',
      body: c.CreateWebhookBody,
      responses: { 201: { description: 'Created; `secret` is shown this once.', body: c.CreatedEndpointResponse }, ...errors(400, 413, 415, 422, ...AUTHED) },
      handle: async ({ principal, body }) => {
        const { endpoint, secret } = orProblem(
          await d.create.execute({
            wallet: principal.wallet,
            url: body.url,
            ...(body.event_types !== undefined && { eventTypes: body.event_types }),
            ...(body.description !== undefined && { description: body.description }),
          }),
          eventProblem,
        );
        return { status: 201, body: { ...endpointJson(endpoint), secret }, headers: NO_STORE };
      },
    }),
    route({
      ...base,
      method: 'get',
      path: '/v1/webhooks',
      operationId: 'listWebhooks',
      summary: "The wallet's webhook endpoints, oldest first (never their secrets)",
      responses: { 200: { description: 'Every endpoint (at most 20).', body: c.EndpointListResponse }, ...errors(400, ...AUTHED) },
      handle: async ({ principal }) => ({ status: 200, body: { items: (await d.read.list(principal.wallet)).map(endpointJson), next_cursor: null } }),
    }),
    route({
      ...base,
      method: 'get',
      path: '/v1/webhooks/{endpoint_id}',
      operationId: 'getWebhook',
      summary: 'One webhook endpoint',
      params: c.EndpointParams,
      responses: { 200: { description: 'The endpoint.', body: c.EndpointResponse }, ...errors(400, 404, ...AUTHED) },
      handle: async ({ principal, params }) => ({
        status: 200,
        body: endpointJson(orProblem(await d.read.get(principal.wallet, params.endpoint_id), eventProblem)),
      }),
    }),
    route({
      ...base,
      method: 'patch',
      path: '/v1/webhooks/{endpoint_id}',
      operationId: 'updateWebhook',
      summary: 'Change an endpoint: URL, event types, description, or turn it off and on',
      params: c.EndpointParams,
      body: c.UpdateWebhookBody,
      responses: { 200: { description: 'The endpoint as it is now.', body: c.EndpointResponse }, ...errors(400, 404, 413, 415, 422, ...AUTHED) },
      handle: async ({ principal, params, body }) => {
        const edit = {
          ...(body.url !== undefined && { url: body.url }),
          ...(body.event_types !== undefined && { eventTypes: body.event_types }),
          ...(body.description !== undefined && { description: body.description }),
          ...(body.enabled !== undefined && { enabled: body.enabled }),
        };
        return {
          status: 200,
          body: endpointJson(orProblem(await d.update.execute({ wallet: principal.wallet, endpointId: params.endpoint_id, edit }), eventProblem)),
        };
      },
    }),
    route({
      ...base,
      method: 'delete',
      path: '/v1/webhooks/{endpoint_id}',
      operationId: 'deleteWebhook',
      summary: 'Delete an endpoint, with its delivery log',
      params: c.EndpointParams,
      responses: { 204: { description: 'Deleted; nothing more is sent to it.' }, ...errors(400, 404, ...AUTHED) },
      handle: async ({ principal, params }) => {
        orProblem(await d.read.delete(principal.wallet, params.endpoint_id), eventProblem);
        return { status: 204 };
      },
    }),
    route({
      ...base,
      method: 'post',
      path: '/v1/webhooks/{endpoint_id}/rotate-secret',
      operationId: 'rotateWebhookSecret',
      summary: 'Give an endpoint a new signing secret',
      description:
        'The new secret is in this answer only. For overlap_s seconds (a day by default) deliveries carry two signatures, with the new and the old secret, so the receiver can switch without refusing any.',
      params: c.EndpointParams,
      body: c.RotateSecretBody,
      responses: { 200: { description: 'The new secret, shown this once.', body: c.RotatedSecretResponse }, ...errors(400, 404, 413, 415, 422, ...AUTHED) },
      handle: async ({ principal, params, body }) => {
        const { endpoint, secret } = orProblem(
          await d.rotate.execute({
            wallet: principal.wallet,
            endpointId: params.endpoint_id,
            ...(body.overlap_s !== undefined && { overlapS: body.overlap_s }),
          }),
          eventProblem,
        );
        return {
          status: 200,
          body: { endpoint_id: endpoint.endpointId, secret, previous_secret_expires_at: endpointJson(endpoint).previous_secret_expires_at },
          headers: NO_STORE,
        };
      },
    }),
    route({
      ...base,
      method: 'post',
      path: '/v1/webhooks/{endpoint_id}/test',
      operationId: 'sendWebhookTest',
      summary: 'Send a webhook.test event to this endpoint',
      description: 'Queued like any event (signed, retried, in the delivery log); it appears in no feed nor stream.',
      params: c.EndpointParams,
      responses: { 202: { description: 'Queued.', body: c.TestEventResponse }, ...errors(400, 404, 409, ...AUTHED) },
      handle: async ({ principal, params }) => {
        const { queuedAtMs } = orProblem(await d.test.execute({ wallet: principal.wallet, endpointId: params.endpoint_id }), eventProblem);
        return { status: 202, body: { endpoint_id: params.endpoint_id, queued_at: new Date(queuedAtMs).toISOString() } };
      },
    }),
    route({
      ...base,
      method: 'get',
      path: '/v1/webhooks/{endpoint_id}/deliveries',
      operationId: 'listWebhookDeliveries',
      summary: "An endpoint's delivery log, newest first",
      params: c.EndpointParams,
      query: c.DeliveryListQuery,
      heavyRead: true,
      responses: { 200: { description: 'A page of deliveries.', body: c.DeliveryListResponse }, ...errors(400, 404, 422, ...AUTHED) },
      handle: async ({ principal, params, query }) => {
        const before = query.cursor === undefined ? undefined : deliveryCursorOf(query.cursor);
        const page = orProblem(
          await d.deliveries.list(principal.wallet, params.endpoint_id, {
            limit: query.limit ?? 50,
            ...(before !== undefined && { before }),
            ...(query.state !== undefined && { state: query.state }),
          }),
          eventProblem,
        );
        return { status: 200, body: { items: page.items.map(deliveryJson), next_cursor: page.next === null ? null : String(page.next) } };
      },
    }),
    route({
      ...base,
      method: 'get',
      path: '/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}',
      operationId: 'getWebhookDelivery',
      summary: 'One delivery with every attempt: time, status code, latency, error',
      params: c.DeliveryParams,
      responses: { 200: { description: 'The delivery and its attempts, oldest first.', body: c.DeliveryDetailResponse }, ...errors(400, 404, ...AUTHED) },
      handle: async ({ principal, params }) => {
        const found = orProblem(await d.deliveries.get(principal.wallet, params.endpoint_id, deliveryIdOf(params.delivery_id)), eventProblem);
        return { status: 200, body: { ...deliveryJson(found.delivery), attempts_log: found.attempts.map(attemptJson) } };
      },
    }),
    route({
      ...base,
      method: 'post',
      path: '/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}/redeliver',
      operationId: 'redeliverWebhook',
      summary: 'Send a delivery again, with the same webhook-id',
      params: c.DeliveryParams,
      responses: { 202: { description: 'Due now; the next free sender takes it.', body: c.DeliveryResponse }, ...errors(400, 404, ...AUTHED) },
      handle: async ({ principal, params }) => {
        const delivery = orProblem(
          await d.deliveries.redeliver(principal.wallet, params.endpoint_id, deliveryIdOf(params.delivery_id), d.clock.nowMs()),
          eventProblem,
        );
        return { status: 202, body: deliveryJson(delivery) };
      },
    }),
  ];
}
