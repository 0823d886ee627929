import * as t from 'io-ts';
import { KEY_PRESETS, MAX_BOUND_ROBOTS, SCOPES } from '../../../domain/identity/key-grant.js';
import { documented } from '../openapi/codec-schema.js';
import { boundedString, closed, DateTimeMs, described, enumOf, LimitFromQuery, NullableString } from './common.codecs.js';

const Name = documented(boundedString(1, 200, 'key name'), {
  type: 'string',
  minLength: 1,
  maxLength: 100,
  description: 'Trimmed; 1 to 100 characters after trimming, no control characters.',
});

/** Scope names are checked by the use case, so that an unknown one is named with the list of known ones. */
const Scopes = documented(t.array(boundedString(1, 64, 'scope')), {
  type: 'array',
  items: { type: 'string', enum: [...SCOPES] },
  minItems: 1,
  description: `What the key may do; left out, every scope (those added later included). Presets: a robot's key ${KEY_PRESETS.robot.join(' + ')}; an auditor's ${KEY_PRESETS.auditor.join(', ')}.`,
});
const RobotIds = documented(t.union([t.array(boundedString(1, 512, 'robot id')), t.null]), {
  type: ['array', 'null'],
  items: { type: 'string', minLength: 1, maxLength: 128 },
  minItems: 1,
  maxItems: MAX_BOUND_ROBOTS,
  description: `The robots (subject.robot_id, device ids) the key acts for: it may submit proofs and report health only for them. Left out or null: any robot of the wallet. At most ${MAX_BOUND_ROBOTS}.`,
});
const ExpiresAt = documented(t.union([DateTimeMs, t.null]), {
  type: ['string', 'null'],
  format: 'date-time',
  description: 'When the key stops working (RFC 3339, in the future). Left out or null: never.',
});

export const CreateKeyBody = t.intersection(
  [t.type({ name: Name }), closed(t.partial({ name: Name, scopes: Scopes, robot_ids: RobotIds, expires_at: ExpiresAt }, 'CreateApiKeyOptions'))],
  'CreateApiKey',
);
export const UpdateKeyBody = closed(
  t.partial(
    {
      name: Name,
      enabled: described(t.boolean, { type: 'boolean', description: 'false disables the key (401 from the next request on); true enables it again.' }),
    },
    'UpdateApiKey',
  ),
);
export const KeyIdParams = t.type({ key_id: boundedString(1, 64) });

/** GET /v1/keys: a page of at most `limit` keys (default 50), after `cursor`. */
export const KeyListQuery = t.partial(
  {
    limit: LimitFromQuery,
    cursor: documented(boundedString(1, 200, 'key cursor'), { type: 'string', description: 'Opaque; the next_cursor of the previous page.' }),
  },
  'ApiKeyListQuery',
);

// Responses (documentation, and response checks in tests).
const KeyStatus = described(t.union([t.literal('active'), t.literal('disabled'), t.literal('expired')]), {
  type: 'string',
  enum: ['active', 'disabled', 'expired'],
  description: 'active: it works; disabled: its owner disabled it; expired: past expires_at.',
});
const keyFields = {
  key_id: t.string,
  name: t.string,
  prefix: t.string,
  created_at: t.string,
  scopes: described(t.array(t.string), { type: 'array', items: { type: 'string', enum: [...SCOPES] }, description: 'Every scope the key holds, spelled out.' }),
  robot_ids: described(t.union([t.array(t.string), t.null]), {
    type: ['array', 'null'],
    items: { type: 'string' },
    description: 'The robots the key acts for, or null: any.',
  }),
  expires_at: NullableString,
  enabled: t.boolean,
  disabled_at: NullableString,
  status: KeyStatus,
};
export const KeyResponse = t.type(keyFields, 'ApiKey');
export const CreatedKeyResponse = t.type(
  { ...keyFields, key: described(t.string, { type: 'string', description: 'The key itself, shown this once.' }) },
  'CreatedApiKey',
);
export const KeySummaryResponse = t.type(
  { ...keyFields, last_used_at: NullableString, request_count: t.number, error_count: t.number, error_rate: t.number },
  'ApiKeySummary',
);
export const KeyListResponse = t.type({ items: t.array(KeySummaryResponse), next_cursor: NullableString }, 'ApiKeyList');

const days = documented(
  new t.Type<number, number, unknown>(
    'days',
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const n = typeof u === 'string' && /^\d{1,3}$/.test(u) ? Number(u) : NaN;
      return n >= 1 && n <= 90 ? t.success(n) : t.failure(u, c, 'must be an integer from 1 to 90');
    },
    t.identity,
  ),
  { type: 'integer', minimum: 1, maximum: 90, default: 30 },
);

/** GET /v1/keys/{key_id}/usage */
export const KeyUsageQuery = t.partial(
  {
    days,
    format: enumOf<'json' | 'csv'>('format', ['json', 'csv'], {
      description:
        'json or csv: the usage as a file to download (Content-Disposition: attachment); CSV has one row per endpoint and day (`endpoint,day,request_count,error_count`), `*` for all endpoints. Without it: JSON, not as an attachment.',
    }),
  },
  'KeyUsageQuery',
);

export const KeyUsageDayResponse = t.type(
  { day: described(t.string, { type: 'string', format: 'date', description: 'The UTC day.' }), request_count: t.number, error_count: t.number },
  'KeyUsageDay',
);
export const KeyEndpointUsageResponse = t.type(
  {
    endpoint: described(t.string, { type: 'string', description: 'The method and route template, e.g. `POST /v1/proofs`.' }),
    request_count: t.number,
    error_count: t.number,
    items: t.array(KeyUsageDayResponse),
  },
  'KeyEndpointUsage',
);
export const KeyUsageResponse = t.type(
  {
    key_id: t.string,
    days: t.number,
    items: t.array(KeyUsageDayResponse),
    endpoints: described(t.array(KeyEndpointUsageResponse), {
      type: 'array',
      description: 'Each endpoint the key called in the window, most requests first, with its days.',
    }),
  },
  'KeyUsage',
);
