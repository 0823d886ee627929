import * as E from 'fp-ts/lib/Either.js';
import type { AssignDevices } from '../../../application/fleet/assign-devices.js';
import type { CreateGroup } from '../../../application/fleet/create-group.js';
import type { DeleteGroup } from '../../../application/fleet/delete-group.js';
import type { FleetError } from '../../../application/fleet/fleet-errors.js';
import type { GetDevice } from '../../../application/fleet/get-device.js';
import type { GetFleetOverview } from '../../../application/fleet/get-fleet-overview.js';
import type { GetGroup } from '../../../application/fleet/get-group.js';
import type { ListGroups } from '../../../application/fleet/list-groups.js';
import type { RenameDevice } from '../../../application/fleet/rename-device.js';
import type { ReportDeviceHealth } from '../../../application/fleet/report-device-health.js';
import type { UnassignDevices } from '../../../application/fleet/unassign-devices.js';
import { describeInvalidText } from '../../../domain/fleet/names.js';
import { ErrorBody } from '../codecs/common.codecs.js';
import * as c from '../codecs/fleet.codecs.js';
import { HttpError } from '../http-error.js';
import type { HttpMetrics } from '../http-metrics.js';
import { route, type AnyRoute } from '../route.js';
import { deviceBody, groupBody, healthBody, overviewBody, proofSummaryBody } from './fleet-bodies.js';

export interface FleetRouteDeps {
  readonly overview: GetFleetOverview;
  readonly getDevice: GetDevice;
  readonly rename: RenameDevice;
  readonly reportHealth: ReportDeviceHealth;
  readonly listGroups: ListGroups;
  readonly getGroup: GetGroup;
  readonly createGroup: CreateGroup;
  readonly assign: AssignDevices;
  readonly unassign: UnassignDevices;
  readonly deleteGroup: DeleteGroup;
  readonly metrics: HttpMetrics;
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON (a body that is not valid UTF-8, or a compressed one that does not inflate, included) or query string (a broken percent-escape, a parameter given twice, or one the route does not take), or a path segment with a broken percent-escape.',
  401: 'Missing, invalid or expired credential, or no X-Wallet-Address.',
  403: 'Wallet mismatch or token balance below the minimum.',
  404: 'No such device or group for this wallet (another wallet\'s are never revealed).',
  409: 'A group of that name exists, or the wallet has the most groups allowed.',
  413: 'Body over the size limit.',
  415: 'Body is not JSON, or its Content-Encoding is not gzip, deflate or br.',
  422: 'Validation failed; detail names the member.',
  429: 'Rate limited; see Retry-After.',
  503: 'A dependency is down; see Retry-After.',
};
const errors = (...statuses: number[]) => Object.fromEntries(statuses.map((s) => [s, { description: ERROR_TEXT[s] ?? 'error', body: ErrorBody }]));
const AUTHED = [401, 403, 429, 503];
const BODY = [400, 413, 415, 422];

/** Every business failure of the fleet use cases, to its status: one exhaustive switch. */
export function fleetProblem(e: FleetError): HttpError {
  switch (e._tag) {
    case 'DeviceNotFound':
      return new HttpError(404, `device ${e.deviceId} not found`, { code: 'device_not_found' });
    case 'GroupNotFound':
      return new HttpError(404, `group ${e.groupId} not found`, { code: 'group_not_found' });
    case 'UnknownDevices':
      return new HttpError(404, `unknown device ids: ${e.deviceIds.join(', ')}`, { code: 'unknown_devices', device_ids: e.deviceIds });
    case 'GroupNameTaken':
      return new HttpError(409, `a group named "${e.name}" already exists`, { code: 'group_name_taken' });
    case 'GroupLimitReached':
      return new HttpError(409, `a wallet may have at most ${e.limit} groups`, { code: 'group_limit_reached' });
    case 'InvalidCursor':
      return new HttpError(422, 'cursor is not one this service issued for this list', { code: 'invalid_cursor' });
    case 'InvalidDeviceIds':
      return new HttpError(422, e.detail, { code: 'validation_error', path: 'device_ids' });
    case 'InvalidText':
      return new HttpError(422, describeInvalidText(e), { code: 'validation_error', path: e.field });
    case 'InvalidHealthReport':
      return new HttpError(422, e.detail, { code: 'validation_error', path: e.field });
    case 'NotYourWallet':
      return new HttpError(403, 'statistics are only available for your own wallet', { code: 'forbidden_wallet' });
  }
}

const orThrow = <A>(result: E.Either<FleetError, A>): A => {
  if (E.isLeft(result)) throw fleetProblem(result.left);
  return result.right;
};

export function fleetRoutes(d: FleetRouteDeps): AnyRoute[] {
  const jwt = 'jwt' as const;
  return [
    route({
      method: 'get',
      path: '/v1/fleet',
      operationId: 'getFleetOverview',
      tag: 'fleet',
      summary: 'Fleet overview: a page of devices, every group, totals',
      description:
        'Devices are listed by id, a page at a time (limit 1–200, default 50; next_cursor for the next page), optionally only one group\'s (group_id, or "none") or only some statuses (status=offline,error). groups lists every group of the wallet (at most 500); summary counts the whole fleet by status and by group. Status: offline when not heard from (proof or health report) for DEVICE_OFFLINE_AFTER_S; else error or degraded when the last health report says so; else online within DEVICE_ONLINE_WINDOW_S, warning beyond.',
      auth: jwt,
      query: c.OverviewQuery,
      responses: { 200: { description: 'The overview.', body: c.OverviewResponse }, ...errors(400, 404, 422, ...AUTHED) },
      handle: async ({ query, principal }) => {
        const overview = orThrow(
          await d.overview.execute({
            wallet: principal!.wallet,
            limit: query.limit ?? 50,
            ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
            ...(query.group_id !== undefined ? { groupId: query.group_id } : {}),
            ...(query.status !== undefined ? { statuses: query.status } : {}),
          }),
        );
        return { status: 200, body: overviewBody(overview) };
      },
    }),
    route({
      method: 'get',
      path: '/v1/fleet/devices/{device_id}',
      operationId: 'getDevice',
      tag: 'fleet',
      summary: 'A device with its recent health reports and proofs',
      auth: jwt,
      params: c.DeviceIdParams,
      query: c.DeviceQuery,
      responses: { 200: { description: 'The device.', body: c.DeviceDetailResponse }, ...errors(400, 404, 422, ...AUTHED) },
      handle: async ({ params, query, principal }) => {
        const found = orThrow(
          await d.getDevice.execute({ wallet: principal!.wallet, deviceId: params.device_id, healthLimit: query.health_limit ?? 20, proofLimit: query.proof_limit ?? 10 }),
        );
        return { status: 200, body: { ...deviceBody(found), health_history: found.health.map(healthBody), recent_proofs: found.recentProofs.map(proofSummaryBody) } };
      },
    }),
    route({
      method: 'patch',
      path: '/v1/fleet/devices/{device_id}/name',
      operationId: 'renameDevice',
      tag: 'fleet',
      summary: 'Rename a device',
      auth: jwt,
      params: c.DeviceIdParams,
      body: c.RenameBody,
      responses: { 200: { description: 'The renamed device.', body: c.DeviceResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const device = orThrow(await d.rename.execute({ wallet: principal!.wallet, deviceId: params.device_id, name: body.name }));
        return { status: 200, body: deviceBody(device) };
      },
    }),
    route({
      method: 'post',
      path: '/v1/fleet/devices/{device_id}/health',
      operationId: 'reportDeviceHealth',
      tag: 'fleet',
      summary: 'Report a device\'s health',
      description: 'Creates the device if the wallet has not seen it. The report is stamped with the registry\'s clock; each device keeps its latest HEALTH_HISTORY_LIMIT reports.',
      auth: jwt,
      params: c.DeviceIdParams,
      body: c.HealthBody,
      responses: { 201: { description: 'Stored; the device as it now is.', body: c.HealthRecordedResponse }, ...errors(...BODY, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const recorded = orThrow(
          await d.reportHealth.execute({
            wallet: principal!.wallet,
            deviceId: params.device_id,
            readings: {
              status: body.status,
              cpuPercent: body.cpu_percent ?? null,
              memoryPercent: body.memory_percent ?? null,
              batteryPercent: body.battery_percent ?? null,
              temperatureC: body.temperature_c ?? null,
              uptimeS: body.uptime_s ?? null,
              message: body.message ?? null,
              metrics: body.metrics ?? null,
            },
          }),
        );
        d.metrics.healthReports.inc({ status: recorded.report.status });
        return { status: 201, body: { report: healthBody(recorded.report), device: deviceBody(recorded.device) } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/fleet/groups',
      operationId: 'listGroups',
      tag: 'fleet',
      summary: 'List groups by name, with their device ids',
      auth: jwt,
      query: c.GroupListQuery,
      responses: { 200: { description: 'A page of groups.', body: c.GroupListResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ query, principal }) => {
        const page = orThrow(await d.listGroups.execute({ wallet: principal!.wallet, limit: query.limit ?? 50, ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) }));
        return { status: 200, body: { items: page.items.map(groupBody), next_cursor: page.nextCursor } };
      },
    }),
    route({
      method: 'post',
      path: '/v1/fleet/groups',
      operationId: 'createGroup',
      tag: 'fleet',
      summary: 'Create a group',
      description: 'Names are unique within the wallet (409 otherwise); a wallet has at most 500 groups.',
      auth: jwt,
      body: c.CreateGroupBody,
      responses: { 201: { description: 'The new, empty group.', body: c.GroupResponse }, ...errors(...BODY, 409, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const group = orThrow(await d.createGroup.execute({ wallet: principal!.wallet, name: body.name, description: body.description ?? null }));
        return { status: 201, body: groupBody({ ...group, deviceCount: 0, deviceIds: [] }), headers: { Location: `/v1/fleet/groups/${encodeURIComponent(group.groupId)}` } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/fleet/groups/{group_id}',
      operationId: 'getGroup',
      tag: 'fleet',
      summary: 'A group with its device ids',
      auth: jwt,
      params: c.GroupIdParams,
      responses: { 200: { description: 'The group.', body: c.GroupResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => ({ status: 200, body: groupBody(orThrow(await d.getGroup.execute({ wallet: principal!.wallet, groupId: params.group_id }))) }),
    }),
    route({
      method: 'post',
      path: '/v1/fleet/groups/{group_id}/assign',
      operationId: 'assignDevices',
      tag: 'fleet',
      summary: 'Put devices in a group',
      description: 'A device is in at most one group: assigning moves it out of its previous one. All or nothing: ids the wallet has no device for give 404 naming them, and nothing changes.',
      auth: jwt,
      params: c.GroupIdParams,
      body: c.DeviceIdsBody,
      responses: { 200: { description: 'The group after the change; changed counts devices that moved.', body: c.MembershipResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const change = orThrow(await d.assign.execute({ wallet: principal!.wallet, groupId: params.group_id, deviceIds: body.device_ids }));
        return { status: 200, body: { group: groupBody(change.group), changed: change.changed } };
      },
    }),
    route({
      method: 'post',
      path: '/v1/fleet/groups/{group_id}/unassign',
      operationId: 'unassignDevices',
      tag: 'fleet',
      summary: 'Take devices out of a group',
      description: 'Devices that are not in this group are left where they are. Unknown ids give 404 naming them, and nothing changes.',
      auth: jwt,
      params: c.GroupIdParams,
      body: c.DeviceIdsBody,
      responses: { 200: { description: 'The group after the change; changed counts devices taken out.', body: c.MembershipResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const change = orThrow(await d.unassign.execute({ wallet: principal!.wallet, groupId: params.group_id, deviceIds: body.device_ids }));
        return { status: 200, body: { group: groupBody(change.group), changed: change.changed } };
      },
    }),
    route({
      method: 'delete',
      path: '/v1/fleet/groups/{group_id}',
      operationId: 'deleteGroup',
      tag: 'fleet',
      summary: 'Delete a group',
      description: 'Its devices become ungrouped; devices, proofs and health history stay.',
      auth: jwt,
      params: c.GroupIdParams,
      responses: { 200: { description: 'Deleted; unassigned counts the devices it held.', body: c.DeleteGroupResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const deleted = orThrow(await d.deleteGroup.execute({ wallet: principal!.wallet, groupId: params.group_id }));
        return { status: 200, body: { group_id: deleted.groupId, deleted: true, unassigned: deleted.unassigned } };
      },
    }),
  ];
}
