import * as t from 'io-ts';
import { DEVICE_ID_MAX, DEVICE_TYPE_MAX, isDeviceId, MAX_DEVICES_PER_ORDER, SORT_ORDER_MAX } from '../../../domain/fleet/device.js';
import { hasCharacters } from '../../../domain/text/characters.js';
import { DEVICE_STATUSES, type DeviceStatus } from '../../../domain/fleet/device-status.js';
import { MAX_DEVICES_PER_CHANGE } from '../../../domain/fleet/group.js';
import { HEALTH_LEVELS, HEALTH_LIMITS, type CustomMetricValue, type HealthLevel } from '../../../domain/fleet/health-report.js';
import { DESCRIPTION_MAX, NAME_MAX } from '../../../domain/fleet/names.js';
import { documented, schemaOf } from '../openapi/codec-schema.js';
import { boundedString, hasLoneSurrogate, LimitFromQuery, LONE_SURROGATE_PROBLEM, NullableString } from './common.codecs.js';
import { ProofSummaryResponse } from './proof.codecs.js';

/** A codec from a validating function; `phrase` completes "<path> …" on failure. */
function custom<A>(name: string, is: (u: unknown) => u is A, check: (u: unknown) => A | undefined, phrase: (u: unknown) => string, schema: Record<string, unknown>) {
  return documented(
    new t.Type<A, A, unknown>(name, is, (u, c) => {
      const value = check(u);
      return value === undefined ? t.failure(u, c, u === undefined ? 'is required' : phrase(u)) : t.success(value);
    }, t.identity),
    schema,
  );
}

const oneOf = <V extends string>(name: string, values: readonly V[]) =>
  custom<V>(name, (u): u is V => values.includes(u as V), (u) => (values.includes(u as V) ? (u as V) : undefined), () => `must be one of ${values.join(', ')}`, {
    type: 'string',
    enum: [...values],
  });

/** A reading: a number within bounds, or null / absent for "not measured". */
function reading(name: string, { min, max }: { min: number; max: number }) {
  return custom<number | null>(
    name,
    (u): u is number | null => u === null || typeof u === 'number',
    (u) => (u === null ? null : typeof u === 'number' && Number.isFinite(u) && u >= min && u <= max ? u : undefined),
    () => `must be a number from ${min} to ${max}`,
    { type: ['number', 'null'], minimum: min, maximum: max },
  );
}

/** Free text checked further by the domain (trimmed length); bounded here so huge bodies stop early. */
const text = (name: string, documentedMax: number, description: string) =>
  custom<string>(
    name,
    (u): u is string => typeof u === 'string',
    (u) => (typeof u === 'string' && u.length <= documentedMax * 4 && !hasLoneSurrogate(u) ? u : undefined),
    (u) => (typeof u !== 'string' ? 'must be a string' : hasLoneSurrogate(u) ? LONE_SURROGATE_PROBLEM : `must be at most ${documentedMax} characters`),
    {
      type: 'string',
      maxLength: documentedMax,
      description,
    },
  );

const nullable = <A>(codec: t.Type<A, A, unknown>, name: string) =>
  documented(
    new t.Type<A | null, A | null, unknown>(name, (u): u is A | null => u === null || codec.is(u), (u, c) => (u === null ? t.success(null) : codec.validate(u, c)), t.identity),
    { anyOf: [schemaOf(codec), { type: 'null' }] },
  );

/** Query integers arrive as text. */
function intFromQuery(name: string, min: number, max: number, fallback: number) {
  return custom<number>(
    name,
    (u): u is number => typeof u === 'number',
    (u) => (typeof u === 'string' && /^\d{1,6}$/.test(u) && Number(u) >= min && Number(u) <= max ? Number(u) : undefined),
    () => `must be an integer from ${min} to ${max}`,
    { type: 'integer', minimum: min, maximum: max, default: fallback },
  );
}

export const DeviceId = boundedString(1, DEVICE_ID_MAX, 'device_id');
export const GroupId = boundedString(1, 64, 'group_id');

export const DeviceIdParams = t.type({ device_id: documented(boundedString(1, DEVICE_ID_MAX), { type: 'string', minLength: 1, maxLength: DEVICE_ID_MAX, description: 'The robot_id of the device (URL-encoded).' }) });
export const GroupIdParams = t.type({ group_id: GroupId });
export const WalletParams = t.type({ addr: documented(boundedString(1, 64), { type: 'string', minLength: 1, maxLength: 64, description: 'The wallet address; must be the caller\'s own.' }) });

const FleetCursor = custom<string>('cursor', (u): u is string => typeof u === 'string', (u) => (typeof u === 'string' && u.length >= 1 && u.length <= 1000 ? u : undefined), () => 'must be 1 to 1000 characters', {
  type: 'string',
  description: 'Opaque; the next_cursor of the previous page.',
});

const StatusList = custom<DeviceStatus[]>(
  'status',
  (u): u is DeviceStatus[] => Array.isArray(u),
  (u) => {
    if (typeof u !== 'string') return undefined;
    const parts = u.split(',');
    return parts.every((p) => (DEVICE_STATUSES as readonly string[]).includes(p)) ? [...new Set(parts as DeviceStatus[])] : undefined;
  },
  () => `must be one or more of ${DEVICE_STATUSES.join(', ')}, separated by commas`,
  { type: 'string', description: `Comma-separated statuses: ${DEVICE_STATUSES.join(', ')}.`, example: 'offline,error' },
);

const GroupFilter = custom<string | null>(
  'group_id',
  (u): u is string | null => u === null || typeof u === 'string',
  (u) => (u === 'none' ? null : typeof u === 'string' && u.length >= 1 && u.length <= 64 ? u : undefined),
  () => 'must be a group id or "none"',
  { type: 'string', description: 'A group id, or "none" for devices in no group.' },
);

export const OverviewQuery = t.partial({ limit: LimitFromQuery, cursor: FleetCursor, group_id: GroupFilter, status: StatusList }, 'FleetOverviewQuery');
export const DeviceQuery = t.partial({ health_limit: intFromQuery('health_limit', 1, 200, 20), proof_limit: intFromQuery('proof_limit', 1, 50, 10) }, 'DeviceQuery');
export const GroupListQuery = t.partial({ limit: LimitFromQuery, cursor: FleetCursor }, 'GroupListQuery');

const Name = text('name', NAME_MAX, `Trimmed; 1 to ${NAME_MAX} characters after trimming, no control characters.`);
const Description = text('description', DESCRIPTION_MAX, `Optional; trimmed; up to ${DESCRIPTION_MAX} characters; empty means none.`);

export const RenameBody = t.type({ name: Name }, 'RenameDevice');
const Color = custom<string>('color', (u): u is string => typeof u === 'string', (u) => (typeof u === 'string' && /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(u.trim()) ? u : undefined), () => 'must be a colour written #rgb or #rrggbb', {
  type: 'string',
  pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
  description: 'Kept as #rrggbb in lower case.',
  example: '#2f80ed',
});
const DeviceType = text('type', DEVICE_TYPE_MAX, `What kind of device, e.g. "arm"; trimmed, up to ${DEVICE_TYPE_MAX} characters, no control characters; empty means none.`);

export const CreateGroupBody = t.intersection([t.type({ name: Name }), t.partial({ description: nullable(Description, 'description'), color: nullable(Color, 'color') })], 'CreateGroup');
export const EditGroupBody = t.partial({ name: Name, description: nullable(Description, 'description'), color: nullable(Color, 'color') }, 'EditGroup');
export const EditDeviceBody = t.partial({ name: nullable(Name, 'name'), description: nullable(Description, 'description'), type: nullable(DeviceType, 'type') }, 'EditDevice');

const SortOrder = custom<number>(
  'sort_order',
  (u): u is number => typeof u === 'number',
  (u) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 && u <= SORT_ORDER_MAX ? u : undefined),
  () => `must be an integer from 0 to ${SORT_ORDER_MAX}`,
  { type: 'integer', minimum: 0, maximum: SORT_ORDER_MAX },
);
const DeviceOrderList = documented(
  t.array(t.type({ device_id: DeviceId, sort_order: SortOrder }, 'DeviceOrder')),
  { type: 'array', minItems: 1, maxItems: MAX_DEVICES_PER_ORDER, items: { type: 'object', required: ['device_id', 'sort_order'], properties: { device_id: { type: 'string', minLength: 1, maxLength: DEVICE_ID_MAX }, sort_order: { type: 'integer', minimum: 0, maximum: SORT_ORDER_MAX } } } },
);
export const OrderDevicesBody = t.type({ device_orders: DeviceOrderList }, 'OrderDevices');
export const OrderDevicesResponse = t.type({ updated: t.number }, 'DevicesOrdered');
export const HideDeviceResponse = t.type({ device_id: t.string, hidden: t.literal(true), hidden_at: t.string }, 'DeviceHidden');

const DeviceIdList = custom<string[]>(
  'device_ids',
  (u): u is string[] => Array.isArray(u),
  (u) =>
    Array.isArray(u) && u.length >= 1 && u.length <= MAX_DEVICES_PER_CHANGE && u.every((id) => typeof id === 'string' && isDeviceId(id) && !hasLoneSurrogate(id))
      ? (u as string[])
      : undefined,
  (u) =>
    !Array.isArray(u)
      ? 'must be an array of device ids'
      : u.length < 1 || u.length > MAX_DEVICES_PER_CHANGE
        ? `must hold 1 to ${MAX_DEVICES_PER_CHANGE} device ids (got ${u.length})`
        : u.some((id) => typeof id === 'string' && hasLoneSurrogate(id))
          ? `must hold device ids without a lone surrogate (it has no UTF-8 form)`
          : `must hold strings of 1 to ${DEVICE_ID_MAX} characters`,
  { type: 'array', items: { type: 'string', minLength: 1, maxLength: DEVICE_ID_MAX }, minItems: 1, maxItems: MAX_DEVICES_PER_CHANGE },
);
export const DeviceIdsBody = t.type({ device_ids: DeviceIdList }, 'DeviceIds');

const Metrics = custom<Record<string, number> | null>(
  'metrics',
  (u): u is Record<string, number> | null => u === null || (typeof u === 'object' && !Array.isArray(u)),
  (u) => {
    if (u === null) return null;
    if (typeof u !== 'object' || Array.isArray(u)) return undefined;
    const entries = Object.entries(u as Record<string, unknown>);
    const fine =
      entries.length <= HEALTH_LIMITS.metricsMaxKeys &&
      entries.every(([k, v]) => k.length >= 1 && k.length <= HEALTH_LIMITS.metricKeyMax && typeof v === 'number' && Number.isFinite(v));
    return fine ? (u as Record<string, number>) : undefined;
  },
  () => `must be an object of at most ${HEALTH_LIMITS.metricsMaxKeys} numbers, named with 1 to ${HEALTH_LIMITS.metricKeyMax} characters`,
  { type: ['object', 'null'], additionalProperties: { type: 'number' }, maxProperties: HEALTH_LIMITS.metricsMaxKeys },
);

const Message = custom<string | null>(
  'message',
  (u): u is string | null => u === null || typeof u === 'string',
  (u) => (u === null ? null : typeof u === 'string' && hasCharacters(u, 0, HEALTH_LIMITS.messageMax) && !u.includes('\u0000') && !hasLoneSurrogate(u) ? u : undefined),
  () => `must be a string of at most ${HEALTH_LIMITS.messageMax} characters, without U+0000 or a lone surrogate`,
  { type: ['string', 'null'], maxLength: HEALTH_LIMITS.messageMax },
);

const Flag = (name: string) =>
  custom<boolean | null>(name, (u): u is boolean | null => u === null || typeof u === 'boolean', (u) => (u === null || typeof u === 'boolean' ? u : undefined), () => 'must be true, false or null', {
    type: ['boolean', 'null'],
  });

const NetworkType = custom<string | null>(
  'network_type',
  (u): u is string | null => u === null || typeof u === 'string',
  (u) => (u === null ? null : typeof u === 'string' && hasCharacters(u, 1, HEALTH_LIMITS.networkTypeMax) && !u.includes('\u0000') && !hasLoneSurrogate(u) ? u : undefined),
  () => `must be a string of 1 to ${HEALTH_LIMITS.networkTypeMax} characters (e.g. wifi, ethernet, cellular), without U+0000 or a lone surrogate`,
  { type: ['string', 'null'], minLength: 1, maxLength: HEALTH_LIMITS.networkTypeMax, example: 'wifi' },
);

const isCustomValue = (v: unknown): boolean =>
  typeof v === 'boolean' ||
  (typeof v === 'number' && Number.isFinite(v)) ||
  (typeof v === 'string' && hasCharacters(v, 0, HEALTH_LIMITS.customTextMax) && !v.includes('\u0000') && !hasLoneSurrogate(v));

const CustomMetrics = custom<Record<string, CustomMetricValue> | null>(
  'custom_metrics',
  (u): u is Record<string, CustomMetricValue> | null => u === null || (typeof u === 'object' && !Array.isArray(u)),
  (u) => {
    if (u === null) return null;
    if (typeof u !== 'object' || Array.isArray(u)) return undefined;
    const entries = Object.entries(u as Record<string, unknown>);
    const fine =
      entries.length <= HEALTH_LIMITS.metricsMaxKeys &&
      entries.every(([k, v]) => hasCharacters(k, 1, HEALTH_LIMITS.metricKeyMax) && !k.includes('\u0000') && !hasLoneSurrogate(k) && isCustomValue(v));
    return fine ? (u as Record<string, CustomMetricValue>) : undefined;
  },
  () =>
    `must be an object of at most ${HEALTH_LIMITS.metricsMaxKeys} members, named with 1 to ${HEALTH_LIMITS.metricKeyMax} characters, each a finite number, a boolean or a string of at most ${HEALTH_LIMITS.customTextMax} characters`,
  {
    type: ['object', 'null'],
    additionalProperties: { anyOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string', maxLength: HEALTH_LIMITS.customTextMax }] },
    maxProperties: HEALTH_LIMITS.metricsMaxKeys,
  },
);

/**
 * A health report. Every reading is optional; `status` too, derived from the readings when
 * absent (docs/fleet-and-scoring.md). `temperature` and `uptime_seconds` (the ACTO SDK's
 * names) are the same readings as `temperature_c` and `uptime_s`: send either name.
 */
export const HealthBody = t.partial(
  {
    status: nullable(oneOf<HealthLevel>('status', HEALTH_LEVELS), 'status'),
    cpu_percent: reading('cpu_percent', HEALTH_LIMITS.percent),
    memory_percent: reading('memory_percent', HEALTH_LIMITS.percent),
    battery_percent: reading('battery_percent', HEALTH_LIMITS.percent),
    temperature_c: reading('temperature_c', HEALTH_LIMITS.temperatureC),
    temperature: reading('temperature', HEALTH_LIMITS.temperatureC),
    uptime_s: reading('uptime_s', HEALTH_LIMITS.uptimeS),
    uptime_seconds: reading('uptime_seconds', HEALTH_LIMITS.uptimeS),
    message: Message,
    metrics: Metrics,
    cpu_temperature: reading('cpu_temperature', HEALTH_LIMITS.temperatureC),
    memory_used_mb: reading('memory_used_mb', HEALTH_LIMITS.memoryMb),
    memory_total_mb: reading('memory_total_mb', HEALTH_LIMITS.memoryMb),
    battery_charging: Flag('battery_charging'),
    disk_percent: reading('disk_percent', HEALTH_LIMITS.percent),
    network_connected: Flag('network_connected'),
    network_type: NetworkType,
    custom_metrics: CustomMetrics,
  },
  'HealthReport',
);

// Responses.
const NullableNumber = t.union([t.number, t.null]);
const Statuses = t.type({ online: t.number, warning: t.number, offline: t.number, degraded: t.number, error: t.number }, 'StatusCounts');

export const HealthReportResponse = t.intersection(
  [
    t.type({
      status: t.keyof({ ok: null, degraded: null, error: null }),
      cpu_percent: NullableNumber,
      memory_percent: NullableNumber,
      battery_percent: NullableNumber,
      temperature_c: NullableNumber,
      uptime_s: NullableNumber,
      message: NullableString,
      metrics: t.union([t.record(t.string, t.number), t.null]),
      received_at: t.string,
    }),
    // The further readings, present when the device sent them; status_derived when it sent no status.
    t.partial({
      cpu_temperature: t.number,
      memory_used_mb: t.number,
      memory_total_mb: t.number,
      battery_charging: t.boolean,
      disk_percent: t.number,
      network_connected: t.boolean,
      network_type: t.string,
      custom_metrics: t.record(t.string, t.union([t.string, t.number, t.boolean])),
      status_derived: t.literal(true),
    }),
  ],
  'HealthReport',
);

export const DeviceResponse = t.type(
  {
    device_id: t.string,
    name: t.string,
    custom_name: t.boolean,
    group_id: NullableString,
    status: t.keyof({ online: null, warning: null, offline: null, degraded: null, error: null }),
    first_seen_at: t.string,
    last_seen_at: t.string,
    last_proof_at: NullableString,
    proof_count: t.number,
    last_health: t.union([HealthReportResponse, t.null]),
    description: NullableString,
    type: NullableString,
    sort_order: t.union([t.number, t.null]),
    hidden: t.boolean,
  },
  'Device',
);

export const DeviceDetailResponse = t.intersection(
  [DeviceResponse, t.type({ health_history: t.array(HealthReportResponse), recent_proofs: t.array(ProofSummaryResponse) })],
  'DeviceDetail',
);

const GroupProps = { group_id: t.string, name: t.string, description: NullableString, color: NullableString, device_count: t.number, created_at: t.string };
export const GroupResponse = t.type({ ...GroupProps, device_ids: t.array(t.string) }, 'Group');
export const GroupListResponse = t.type({ items: t.array(GroupResponse), next_cursor: NullableString }, 'GroupList');
export const MembershipResponse = t.type({ group: GroupResponse, changed: t.number }, 'GroupMembershipChange');
export const DeleteGroupResponse = t.type({ group_id: t.string, deleted: t.boolean, unassigned: t.number }, 'GroupDeleted');

export const OverviewResponse = t.type(
  {
    devices: t.array(DeviceResponse),
    next_cursor: NullableString,
    groups: t.array(t.type(GroupProps, 'GroupSummary')),
    summary: t.type({
      total_devices: t.number,
      by_status: Statuses,
      by_group: t.array(t.type({ group_id: NullableString, name: NullableString, device_count: t.number, by_status: Statuses })),
      group_count: t.number,
    }),
    generated_at: t.string,
    windows: t.type({ online_window_s: t.number, offline_after_s: t.number }),
  },
  'FleetOverview',
);

export const StatsResponse = t.type(
  {
    wallet: t.string,
    generated_at: t.string,
    proofs: t.type({ total: t.number, last_24h: t.number, last_7d: t.number, first_at: NullableString, last_at: NullableString, basis: t.string }),
    devices: t.type({ total: t.number, by_status: Statuses }),
    groups: t.type({ total: t.number }),
    score: t.type({
      average: NullableNumber,
      min: NullableNumber,
      max: NullableNumber,
      sample_size: t.number,
      sample_limit: t.number,
      basis: t.string,
      policy: t.string,
      average_all: NullableNumber,
      scored_proofs: t.number,
    }),
    api_keys: t.type({ requests: t.number, errors: t.number, error_rate: NullableNumber }),
    proofs_submitted: t.number,
    verifications: t.type({ total: t.number, successful: t.number, failed: t.number, success_rate: NullableNumber }),
    activity: t.type({ first_at: NullableString, last_at: NullableString, basis: t.string }),
    proofs_by_robot: t.array(t.type({ robot_id: t.string, proofs: t.number })),
    proofs_by_task: t.array(t.type({ task_id: t.string, proofs: t.number })),
    timeline: t.type({ days: t.number, basis: t.string, points: t.array(t.type({ date: t.string, proofs: t.number, verifications: t.number })) }),
  },
  'WalletStats',
);

export const HealthRecordedResponse = t.type({ report: HealthReportResponse, device: DeviceResponse }, 'HealthRecorded');

export const LatestHealthResponse = t.type({ device_id: t.string, health: t.union([HealthReportResponse, t.null]) }, 'LatestHealth');

export const StatsQuery = t.partial({ days: intFromQuery('days', 1, 365, 30) }, 'WalletStatsQuery');
