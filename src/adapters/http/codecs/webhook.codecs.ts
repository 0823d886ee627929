import * as t from 'io-ts';
import { WEBHOOK_URL_MAX } from '../../../domain/events/webhook.js';
import { MAX_OVERLAP_S } from '../../../application/events/rotate-webhook-secret.js';
import { documented } from '../openapi/codec-schema.js';
import { boundedInteger, boundedString, closed, described, LimitFromQuery, NullableString } from './common.codecs.js';

const Url = documented(boundedString(1, 8 * WEBHOOK_URL_MAX, 'webhook url'), {
  type: 'string',
  maxLength: WEBHOOK_URL_MAX,
  description:
    'Absolute https (or http) URL, without user name, password or #fragment. Refused when its host is a loopback, private, link-local or metadata address (unless the service runs with WEBHOOK_ALLOW_PRIVATE=1); every delivery checks the address the name resolves to.',
});
const Types = described(t.union([t.array(boundedString(1, 100, 'event type')), t.null]), {
  type: ['array', 'null'],
  items: { type: 'string' },
  description: 'Event types this endpoint receives; absent or null: every type. An unknown type is refused (422).',
});
const Description = described(t.union([boundedString(0, 600, 'description'), t.null]), { type: ['string', 'null'], maxLength: 500 });

export const CreateWebhookBody = t.intersection(
  [t.type({ url: Url }), closed(t.partial({ url: Url, event_types: Types, description: Description }))],
  'CreateWebhook',
);
export const UpdateWebhookBody = closed(
  t.partial(
    {
      url: Url,
      event_types: Types,
      description: Description,
      enabled: described(t.boolean, {
        type: 'boolean',
        description: 'false stops deliveries; true resumes them and clears why the registry turned the endpoint off.',
      }),
    },
    'UpdateWebhook',
  ),
);
export const RotateSecretBody = closed(
  t.partial(
    {
      overlap_s: boundedInteger('overlap_s', 0, MAX_OVERLAP_S, false, `must be an integer from 0 to ${MAX_OVERLAP_S}`, {
        type: 'integer',
        minimum: 0,
        maximum: MAX_OVERLAP_S,
        default: 86_400,
        description: 'Seconds the previous secret still signs deliveries (both signatures are sent).',
      }),
    },
    'RotateWebhookSecret',
  ),
);

export const EndpointParams = t.type({ endpoint_id: boundedString(1, 64) });
export const DeliveryParams = t.type({ endpoint_id: boundedString(1, 64), delivery_id: boundedString(1, 20) });
export const DeliveryListQuery = t.partial(
  {
    limit: LimitFromQuery,
    cursor: documented(boundedString(1, 20, 'delivery cursor'), { type: 'string', description: 'The next_cursor of the previous page.' }),
    state: t.union([t.literal('pending'), t.literal('succeeded'), t.literal('failed')]),
  },
  'DeliveryListQuery',
);

const Time = described(t.string, { type: 'string', format: 'date-time' });
const NullableTime = described(NullableString, { type: ['string', 'null'], format: 'date-time' });

export const EndpointResponse = t.type(
  {
    endpoint_id: t.string,
    url: t.string,
    description: NullableString,
    event_types: t.union([t.array(t.string), t.null]),
    enabled: t.boolean,
    disabled_reason: described(NullableString, {
      type: ['string', 'null'],
      description: 'Why the registry turned it off (410 Gone, failing for days); null otherwise.',
    }),
    created_at: Time,
    updated_at: Time,
    failing_since: described(NullableTime, { type: ['string', 'null'], format: 'date-time', description: 'The first failed attempt since the last success.' }),
    last_success_at: NullableTime,
    previous_secret_expires_at: described(NullableTime, {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Until then deliveries are also signed with the secret before the last rotation.',
    }),
  },
  'WebhookEndpoint',
);
export const CreatedEndpointResponse = t.intersection(
  [EndpointResponse, t.type({ secret: described(t.string, { type: 'string', description: 'whsec_…: shown this once.' }) })],
  'CreatedWebhookEndpoint',
);
export const EndpointListResponse = t.type({ items: t.array(EndpointResponse), next_cursor: t.null }, 'WebhookEndpointList');
export const RotatedSecretResponse = t.type({ endpoint_id: t.string, secret: t.string, previous_secret_expires_at: NullableTime }, 'RotatedWebhookSecret');

const DeliveryState = t.union([t.literal('pending'), t.literal('succeeded'), t.literal('failed')]);
export const DeliveryResponse = t.type(
  {
    delivery_id: t.string,
    event_id: t.string,
    event_type: t.string,
    state: DeliveryState,
    attempts: t.number,
    next_attempt_at: NullableTime,
    last_status_code: t.union([t.number, t.null]),
    last_error: NullableString,
    last_attempt_at: NullableTime,
    created_at: Time,
  },
  'WebhookDelivery',
);
export const AttemptResponse = t.type(
  {
    attempt: t.number,
    at: Time,
    status_code: t.union([t.number, t.null]),
    latency_ms: t.number,
    error: NullableString,
    response_excerpt: t.string,
    trigger: t.union([t.literal('scheduled'), t.literal('manual')]),
  },
  'WebhookAttempt',
);
export const DeliveryListResponse = t.type({ items: t.array(DeliveryResponse), next_cursor: NullableString }, 'WebhookDeliveryList');
export const DeliveryDetailResponse = t.intersection([DeliveryResponse, t.type({ attempts_log: t.array(AttemptResponse) })], 'WebhookDeliveryDetail');
export const TestEventResponse = t.type({ endpoint_id: t.string, queued_at: Time }, 'WebhookTestQueued');
