import * as t from 'io-ts';
import { EVENT_TYPES } from '../../../domain/events/event.js';
import { DEVICE_STATUSES } from '../../../domain/fleet/device-status.js';
import { documented } from '../openapi/codec-schema.js';
import { boundedString, described, LimitFromQuery, NullableString } from './common.codecs.js';

const literals = <T extends string>(values: readonly T[], name: string) =>
  t.union(values.map((v) => t.literal(v)) as unknown as [t.LiteralC<T>, t.LiteralC<T>, ...t.LiteralC<T>[]], name);

const Time = described(t.string, { type: 'string', format: 'date-time' });
const NullableStatus = t.union([literals(DEVICE_STATUSES, 'DeviceStatus'), t.null]);

/** The `data` of each event type, as sent (docs/events.md). */
export const ProofAcceptedData = t.type(
  {
    proof_id: t.string,
    log_index: t.union([t.number, t.null]),
    task_id: t.string,
    robot_id: NullableString,
    run_id: NullableString,
    created_at: t.string,
    received_at: Time,
    signer_public_key_b64: t.string,
  },
  'ProofAcceptedData',
);
export const ProofRejectedData = t.type(
  {
    code: described(t.string, {
      type: 'string',
      description: 'The code of the 422 the submission got, in snake_case (e.g. signature_invalid, unstorable_proof; docs/api.md, "Error codes").',
    }),
    check: described(NullableString, {
      type: ['string', 'null'],
      description:
        'The protocol check that failed (shape, algorithms, timestamps, telemetry_hash, payload_hash, encoding, signature); null for a proof that verified but cannot be stored.',
    }),
    detail: t.string,
    proof_id: described(NullableString, { type: ['string', 'null'], description: 'The payload_hash the envelope claimed, if it held text there.' }),
    task_id: NullableString,
    robot_id: NullableString,
  },
  'ProofRejectedData',
);
export const ProofLoggedData = t.type(
  {
    proof_id: t.string,
    log_index: t.number,
    tree_size: t.number,
    leaf_hash: described(t.string, { type: 'string', description: 'RFC 9162 leaf hash, lowercase hex.' }),
    hashes: described(t.array(t.string), { type: 'array', items: { type: 'string' }, description: 'The audit path to the root of tree_size, lowercase hex.' }),
    checkpoint: described(t.string, { type: 'string', description: 'The signed checkpoint (C2SP signed note) of tree_size the path ends at.' }),
  },
  'ProofLoggedData',
);
export const DeviceStatusChangedData = t.type(
  {
    device_id: t.string,
    from: NullableStatus,
    to: literals(DEVICE_STATUSES, 'DeviceStatus'),
    why: literals(['proof', 'health_report', 'silence'], 'StatusCause'),
    last_seen_at: Time,
  },
  'DeviceStatusChangedData',
);
export const KeyCreatedData = t.type(
  {
    key_id: t.string,
    name: t.string,
    prefix: t.string,
    created_at: Time,
    scopes: described(t.array(t.string), { type: 'array', items: { type: 'string' }, description: 'Every scope the key holds.' }),
    robot_ids: described(t.union([t.array(t.string), t.null]), {
      type: ['array', 'null'],
      items: { type: 'string' },
      description: 'The robots the key acts for, or null: any.',
    }),
    expires_at: described(t.union([t.string, t.null]), { type: ['string', 'null'], format: 'date-time' }),
  },
  'KeyCreatedData',
);
export const KeyUpdatedData = t.type(
  {
    key_id: t.string,
    name: t.string,
    prefix: t.string,
    enabled: t.boolean,
    changed: described(t.array(t.union([t.literal('name'), t.literal('enabled')])), {
      type: 'array',
      items: { type: 'string', enum: ['name', 'enabled'] },
      description: 'What changed.',
    }),
  },
  'KeyUpdatedData',
);
export const KeyDeletedData = t.type({ key_id: t.string, name: t.string, prefix: t.string }, 'KeyDeletedData');
export const WebhookTestData = t.type({ endpoint_id: t.string, message: t.string }, 'WebhookTestData');

const event = <T extends string, D extends t.Mixed>(type: T, data: D) =>
  t.type(
    {
      id: described(t.string, { type: 'string', pattern: '^evt_[0-9]{16}$', description: 'Sortable: ids order events as they were committed.' }),
      type: t.literal(type),
      timestamp: Time,
      wallet: t.string,
      data,
    },
    `Event_${type.replace('.', '_')}`,
  );

/** Every event a receiver can get: webhook body, stream `data:`, feed item. */
export const EventBody = t.union(
  [
    event('proof.accepted', ProofAcceptedData),
    event('proof.rejected', ProofRejectedData),
    event('proof.logged', ProofLoggedData),
    event('device.status_changed', DeviceStatusChangedData),
    event('key.created', KeyCreatedData),
    event('key.updated', KeyUpdatedData),
    event('key.deleted', KeyDeletedData),
    event('webhook.test', WebhookTestData),
  ],
  'Event',
);

export const EventTypes = documented(boundedString(1, 500, 'event types'), {
  type: 'string',
  description: `Comma-separated event types to keep (others are skipped): ${EVENT_TYPES.join(', ')}.`,
});
export const EventAfter = documented(boundedString(1, 40, 'event id'), {
  type: 'string',
  pattern: '^evt_[0-9]{16}$',
  description: 'Only events after this id (an event id, or the next_cursor of a previous page).',
});

const EventBefore = documented(boundedString(1, 40, 'event id'), {
  type: 'string',
  pattern: '^evt_[0-9]{16}$',
  description: 'Only events before this id (with order=desc: the next_cursor of the previous page).',
});
const EventOrder = documented(t.union([t.literal('asc'), t.literal('desc')]), {
  type: 'string',
  enum: ['asc', 'desc'],
  default: 'asc',
  description: 'asc: oldest first (to poll); desc: newest first (recent history).',
});
export const EventListQuery = t.partial(
  { after: EventAfter, before: EventBefore, order: EventOrder, types: EventTypes, limit: LimitFromQuery },
  'EventListQuery',
);
export const EventStreamQuery = t.partial({ after: EventAfter, types: EventTypes }, 'EventStreamQuery');
export const EventListResponse = t.type({ items: t.array(EventBody), next_cursor: NullableString, has_more: t.boolean }, 'EventList');
