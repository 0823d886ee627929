import * as t from 'io-ts';
import { DEVICE_ID_MAX, DEVICE_TYPE_MAX, MAX_DEVICES_PER_ORDER, SORT_ORDER_MAX } from '../../../domain/fleet/device.js';
import { DEVICE_STATUSES, type DeviceStatus } from '../../../domain/fleet/device-status.js';
import { documented } from '../openapi/codec-schema.js';
import { boundedString, LimitFromQuery, NullableString } from './common.codecs.js';
import { custom, Description, FleetCursor, intFromQuery, Name, nullable, text } from './fleet-field.codecs.js';
import { GroupSummary } from './group.codecs.js';
import { HealthReportResponse } from './health.codecs.js';
import { ProofSummaryResponse } from './proof.codecs.js';

/**
 * The fleet's devices, its overview and a wallet's statistics. The family's groups and health
 * reports have files of their own, re-exported here so that the fleet's codecs are one import.
 */
export * from './group.codecs.js';
export * from './health.codecs.js';

export const DeviceId = boundedString(1, DEVICE_ID_MAX, 'device_id');

export const DeviceIdParams = t.type({
  device_id: documented(boundedString(1, DEVICE_ID_MAX), {
    type: 'string',
    minLength: 1,
    maxLength: DEVICE_ID_MAX,
    description: 'The robot_id of the device (URL-encoded).',
  }),
});
export const WalletParams = t.type({
  addr: documented(boundedString(1, 64), { type: 'string', minLength: 1, maxLength: 64, description: "The wallet address; must be the caller's own." }),
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
export const DeviceQuery = t.partial(
  { health_limit: intFromQuery('health_limit', 1, 200, 20), proof_limit: intFromQuery('proof_limit', 1, 50, 10) },
  'DeviceQuery',
);

export const RenameBody = t.type({ name: Name }, 'RenameDevice');
const DeviceType = text(
  'type',
  DEVICE_TYPE_MAX,
  `What kind of device, e.g. "arm"; trimmed, up to ${DEVICE_TYPE_MAX} characters, no control characters; empty means none.`,
);

export const EditDeviceBody = t.partial(
  { name: nullable(Name, 'name'), description: nullable(Description, 'description'), type: nullable(DeviceType, 'type') },
  'EditDevice',
);

const SortOrder = custom<number>(
  'sort_order',
  (u): u is number => typeof u === 'number',
  (u) => (typeof u === 'number' && Number.isSafeInteger(u) && u >= 0 && u <= SORT_ORDER_MAX ? u : undefined),
  () => `must be an integer from 0 to ${SORT_ORDER_MAX}`,
  { type: 'integer', minimum: 0, maximum: SORT_ORDER_MAX },
);
const DeviceOrderList = documented(t.array(t.type({ device_id: DeviceId, sort_order: SortOrder }, 'DeviceOrder')), {
  type: 'array',
  minItems: 1,
  maxItems: MAX_DEVICES_PER_ORDER,
  items: {
    type: 'object',
    required: ['device_id', 'sort_order'],
    properties: { device_id: { type: 'string', minLength: 1, maxLength: DEVICE_ID_MAX }, sort_order: { type: 'integer', minimum: 0, maximum: SORT_ORDER_MAX } },
  },
});
export const OrderDevicesBody = t.type({ device_orders: DeviceOrderList }, 'OrderDevices');
export const OrderDevicesResponse = t.type({ updated: t.number }, 'DevicesOrdered');
export const HideDeviceResponse = t.type({ device_id: t.string, hidden: t.literal(true), hidden_at: t.string }, 'DeviceHidden');

// Responses.
const NullableNumber = t.union([t.number, t.null]);
const Statuses = t.type({ online: t.number, warning: t.number, offline: t.number, degraded: t.number, error: t.number }, 'StatusCounts');

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

export const OverviewResponse = t.type(
  {
    devices: t.array(DeviceResponse),
    next_cursor: NullableString,
    groups: t.array(GroupSummary),
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

export const StatsQuery = t.partial({ days: intFromQuery('days', 1, 365, 30) }, 'WalletStatsQuery');
