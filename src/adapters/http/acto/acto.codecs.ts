import * as t from 'io-ts';
import { MAX_INDEXED_LENGTH } from '../../../domain/proof/proof-record.js';
import { boundedInteger, boundedString, closed, DateTimeMs, described, LimitFromBody, LimitFromQuery, NullableString } from '../codecs/common.codecs.js';
import { NonNegativeNumber, SolanaAddress } from '../codecs/identity.codecs.js';
import { DeviceId } from '../codecs/fleet.codecs.js';
import { EnvelopeCodec } from '../../../application/codecs/envelope.codec.js';
import { MAX_OFFSET } from '../../../application/ports/proof-store.js';

/**
 * The bodies the ACTO SDK (`actobotics` 1.0.0) sends and the answers it reads, as its client
 * and its pydantic models have them. Members it does not read may be added; the ones it
 * requires are here with their types, and tests check every answer against these codecs.
 */

// Requests.

const Offset = boundedInteger('offset', 0, MAX_OFFSET, false, `must be an integer from 0 to ${MAX_OFFSET}`, {
  type: 'integer',
  minimum: 0,
  maximum: MAX_OFFSET,
  default: 0,
});

const Id = boundedString(0, MAX_INDEXED_LENGTH);

export const SearchBody = closed(
  t.partial(
    {
      limit: LimitFromBody,
      offset: Offset,
      sort_field: t.keyof({ created_at: null, task_id: null, robot_id: null, payload_hash: null }),
      sort_order: t.keyof({ asc: null, desc: null }),
      task_id: Id,
      robot_id: Id,
      run_id: Id,
      signer_public_key: boundedString(1, 100),
      created_after: DateTimeMs,
      created_before: DateTimeMs,
      search_text: boundedString(1, 200),
    },
    'ActoSearchProofs',
  ),
);

export const ListQuery = t.partial({ limit: LimitFromQuery }, 'ActoListProofsQuery');

export const AccessCheckBody = t.intersection(
  [
    t.type({ owner: SolanaAddress, mint: SolanaAddress, minimum: NonNegativeNumber }),
    t.partial({ rpc_url: described(t.string, { type: 'string', description: "Ignored: balances come from the registry's own source." }) }),
  ],
  'ActoAccessCheck',
);

const NullableNumber = t.union([t.number, t.null]);
const NullableBoolean = t.union([t.boolean, t.null]);
const MetricValue = t.union([t.string, t.number, t.boolean]);

/** The SDK's health metrics, named as it sends them and reads them back. */
const SdkMetrics = {
  cpu_percent: NullableNumber,
  cpu_temperature: NullableNumber,
  memory_percent: NullableNumber,
  memory_used_mb: NullableNumber,
  memory_total_mb: NullableNumber,
  battery_percent: NullableNumber,
  battery_charging: NullableBoolean,
  disk_percent: NullableNumber,
  network_connected: NullableBoolean,
  network_type: NullableString,
  uptime_seconds: NullableNumber,
  temperature: NullableNumber,
};

/** What `fleet.report_health` sends: any of the SDK's metrics, never a status. */
export const HealthBody = t.partial({ ...SdkMetrics, custom_metrics: t.union([t.record(t.string, MetricValue), t.null]) }, 'ActoHealthReport');

export const ReorderBody = t.type({ device_orders: t.array(t.type({ device_id: DeviceId, sort_order: t.number }), 'device_orders') }, 'ActoReorderDevices');

// Answers.

export const Health = t.type({ ok: t.boolean, service: t.string, version: t.string }, 'ActoHealth');

export const ProofListItem = t.type(
  { proof_id: t.string, task_id: t.string, robot_id: NullableString, run_id: NullableString, created_at: t.string, signer_public_key_b64: t.string },
  'ActoProofListItem',
);
export const SubmitResponse = t.type({ proof_id: t.string }, 'ActoSubmitResult');
export const ProofResponse = t.type({ proof_id: t.string, envelope: EnvelopeCodec }, 'ActoProof');
export const ProofListResponse = t.type({ items: t.array(ProofListItem) }, 'ActoProofList');
export const SearchResponse = t.type(
  { items: t.array(ProofListItem), total: t.number, limit: t.number, offset: t.number, has_more: t.boolean },
  'ActoProofSearch',
);
export const VerifyResponse = t.type({ valid: t.boolean, reason: t.string }, 'ActoVerification');
export const BatchResponse = t.type(
  {
    results: t.array(t.type({ index: t.number, valid: t.boolean, reason: t.string, payload_hash: NullableString })),
    total: t.number,
    valid_count: t.number,
    invalid_count: t.number,
  },
  'ActoBatchVerification',
);
export const ScoreResponse = t.type({ score: t.number, breakdown: t.record(t.string, t.unknown) }, 'ActoScore');
export const AccessCheckResponse = t.type({ allowed: t.boolean, reason: t.string, balance: NullableNumber }, 'ActoAccessCheckResult');

export const StatsResponse = t.intersection(
  [
    t.type({ wallet_address: t.string }),
    t.partial({
      total_proofs_submitted: t.number,
      total_verifications: t.number,
      successful_verifications: t.number,
      failed_verifications: t.number,
      verification_success_rate: t.number,
      average_reputation_score: t.number,
      first_activity: NullableString,
      last_activity: NullableString,
      proofs_by_robot: t.record(t.string, t.number),
      proofs_by_task: t.record(t.string, t.number),
      activity_timeline: t.array(t.type({ date: t.string, proof_count: t.number, verification_count: t.number })),
    }),
  ],
  'ActoWalletStats',
);

export const DeviceHealth = t.type({ ...SdkMetrics, custom_metrics: t.record(t.string, MetricValue), last_updated: NullableString }, 'ActoDeviceHealth');

const DeviceProps = {
  id: t.string,
  name: NullableString,
  custom_name: NullableString,
  display_name: NullableString,
  group_id: NullableString,
  group_name: NullableString,
  proof_count: t.number,
  last_activity: NullableString,
  first_activity: NullableString,
  status: t.string,
  health: t.union([DeviceHealth, t.null]),
};
export const DeviceInfo = t.type(DeviceProps, 'ActoDeviceInfo');
export const DeviceDetailResponse = t.type({ ...DeviceProps, recent_logs: t.array(t.UnknownRecord), task_history: t.array(t.string) }, 'ActoDeviceDetail');
export const Group = t.type(
  { id: t.string, name: t.string, description: NullableString, device_count: t.number, device_ids: t.array(t.string), created_at: NullableString },
  'ActoGroup',
);
export const OverviewResponse = t.type(
  {
    devices: t.array(DeviceInfo),
    groups: t.array(Group),
    summary: t.type({
      total_devices: t.number,
      active_devices: t.number,
      warning_devices: t.number,
      offline_devices: t.number,
      total_proofs: t.number,
      total_tasks: described(t.number, { type: 'number', description: "Distinct task ids among the wallet's proofs." }),
      total_groups: t.number,
    }),
  },
  'ActoFleetOverview',
);
export const GroupListResponse = t.type({ groups: t.array(Group), total: t.number }, 'ActoGroupList');
export const HealthReportResponse = t.type({ success: t.boolean, device_id: t.string, health: DeviceHealth }, 'ActoHealthRecorded');
export const DeviceHealthResponse = t.type({ device_id: t.string, health: DeviceHealth }, 'ActoLatestHealth');
export const RenameResponse = t.type({ success: t.boolean, device_id: t.string, name: t.string }, 'ActoRenamed');
export const DeleteDeviceResponse = t.type({ success: t.boolean, device_id: t.string }, 'ActoDeviceHidden');
export const ReorderResponse = t.type({ success: t.boolean, updated: t.number }, 'ActoReordered');
export const CreateGroupResponse = t.type({ success: t.boolean, group: Group }, 'ActoGroupCreated');
export const MembershipResponse = t.type({ success: t.boolean, group_id: t.string, assigned: t.array(t.string) }, 'ActoGroupMembership');
export const DeleteGroupResponse = t.type({ success: t.boolean, group_id: t.string, devices_unassigned: t.number }, 'ActoGroupDeleted');
