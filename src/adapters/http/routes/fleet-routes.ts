import type { AssignDevices } from '../../../application/fleet/assign-devices.js';
import type { CreateGroup } from '../../../application/fleet/create-group.js';
import type { DeleteGroup } from '../../../application/fleet/delete-group.js';
import type { EditDevice } from '../../../application/fleet/edit-device.js';
import type { HideDevice } from '../../../application/fleet/hide-device.js';
import type { OrderDevices } from '../../../application/fleet/order-devices.js';
import type { UpdateGroup } from '../../../application/fleet/update-group.js';
import type { GetDevice } from '../../../application/fleet/get-device.js';
import type { GetDeviceHealth } from '../../../application/fleet/get-device-health.js';
import type { GetFleetOverview } from '../../../application/fleet/get-fleet-overview.js';
import type { GetGroup } from '../../../application/fleet/get-group.js';
import type { ListGroups } from '../../../application/fleet/list-groups.js';
import type { RenameDevice } from '../../../application/fleet/rename-device.js';
import type { ReportDeviceHealth } from '../../../application/fleet/report-device-health.js';
import type { UnassignDevices } from '../../../application/fleet/unassign-devices.js';
import * as c from '../codecs/fleet.codecs.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import { HttpError, orProblem } from '../http-error.js';
import type { HttpMetrics } from '../http-metrics.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, BODY, errorResponses } from './error-responses.js';
import { deviceBody, groupBody, healthBody, overviewBody, proofSummaryBody } from './fleet-bodies.js';
import { fleetProblem } from './fleet-problems.js';

export interface FleetRouteDeps {
  readonly overview: GetFleetOverview;
  readonly getDevice: GetDevice;
  readonly rename: RenameDevice;
  readonly reportHealth: ReportDeviceHealth;
  readonly deviceHealth: GetDeviceHealth;
  readonly editDevice: EditDevice;
  readonly hideDevice: HideDevice;
  readonly orderDevices: OrderDevices;
  readonly updateGroup: UpdateGroup;
  readonly listGroups: ListGroups;
  readonly getGroup: GetGroup;
  readonly createGroup: CreateGroup;
  readonly assign: AssignDevices;
  readonly unassign: UnassignDevices;
  readonly deleteGroup: DeleteGroup;
  readonly metrics: HttpMetrics;
}

const errors = errorResponses({
  404: 'No such device or group for this wallet (another wallet\'s are never revealed).',
  409: 'A group of that name exists, or the wallet has the most groups allowed.',
});

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
        const overview = orProblem(
          await d.overview.execute({
            wallet: principal!.wallet,
            limit: query.limit ?? 50,
            ...(query.cursor !== undefined ? { cursor: query.cursor } : {}),
            ...(query.group_id !== undefined ? { groupId: query.group_id } : {}),
            ...(query.status !== undefined ? { statuses: query.status } : {}),
          }),
          fleetProblem,
        );
        return { status: 200, body: overviewBody(overview) };
      },
    }),
    // Before the routes of one device: "order" is this route's, not a device's (its name stays
    // reachable through PATCH …/name).
    route({
      method: 'patch',
      path: '/v1/fleet/devices/order',
      operationId: 'orderDevices',
      tag: 'fleet',
      summary: 'Set the order of devices in the overview',
      description:
        'Each device gets its sort_order (0–1000000; equal orders list by id); the overview lists by it, devices never placed last, by id. All or nothing: ids the wallet has no device for give 404 naming them, and nothing changes.',
      auth: jwt,
      body: c.OrderDevicesBody,
      responses: { 200: { description: 'updated counts the devices placed.', body: c.OrderDevicesResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const done = orProblem(await d.orderDevices.execute({ wallet: principal!.wallet, orders: body.device_orders.map((o) => ({ deviceId: o.device_id, sortOrder: o.sort_order })) }), fleetProblem);
        return { status: 200, body: { updated: done.updated } };
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
        const found = orProblem(await d.getDevice.execute({ wallet: principal!.wallet, deviceId: params.device_id, healthLimit: query.health_limit ?? 20, proofLimit: query.proof_limit ?? 10 }), fleetProblem);
        return { status: 200, body: { ...deviceBody(found), health_history: found.health.map(healthBody), recent_proofs: found.recentProofs.map(proofSummaryBody) } };
      },
    }),
    route({
      method: 'patch',
      path: '/v1/fleet/devices/{device_id}',
      operationId: 'editDevice',
      tag: 'fleet',
      summary: 'Name, describe or type a device',
      description: 'Members given are set, members left out stay; null clears one (a null name goes back to the id). At least one member.',
      auth: jwt,
      params: c.DeviceIdParams,
      body: c.EditDeviceBody,
      responses: { 200: { description: 'The device.', body: c.DeviceResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const edit = {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.type !== undefined ? { deviceType: body.type } : {}),
        };
        const device = orProblem(await d.editDevice.execute({ wallet: principal!.wallet, deviceId: params.device_id, edit }), fleetProblem);
        return { status: 200, body: deviceBody(device) };
      },
    }),
    route({
      method: 'delete',
      path: '/v1/fleet/devices/{device_id}',
      operationId: 'hideDevice',
      tag: 'fleet',
      summary: 'Hide a device',
      description:
        'The device leaves the overview, the fleet counts and its group; its proofs and health history stay, and GET still finds it (hidden: true). It comes back, in no group, with its next proof or health report.',
      auth: jwt,
      params: c.DeviceIdParams,
      responses: { 200: { description: 'Hidden.', body: c.HideDeviceResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const hidden = orProblem(await d.hideDevice.execute({ wallet: principal!.wallet, deviceId: params.device_id }), fleetProblem);
        return { status: 200, body: { device_id: hidden.deviceId, hidden: true, hidden_at: toRfc3339(hidden.hiddenAtMs) } };
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
        const device = orProblem(await d.rename.execute({ wallet: principal!.wallet, deviceId: params.device_id, name: body.name }), fleetProblem);
        return { status: 200, body: deviceBody(device) };
      },
    }),
    route({
      method: 'post',
      path: '/v1/fleet/devices/{device_id}/health',
      operationId: 'reportDeviceHealth',
      tag: 'fleet',
      summary: 'Report a device\'s health',
      description:
        'Takes an API key as well as a dashboard token: a robot holds a key, not a wallet, and reports its own health. Creates the device if the wallet has not seen it, and shows it again if it was hidden. Every reading is optional and kept as sent; `temperature` and `uptime_seconds` are other names of `temperature_c` and `uptime_s` (both names of one reading must agree). Without `status` the registry derives one from the readings (docs/fleet-and-scoring.md) and says so with `status_derived`. The report is stamped with the registry\'s clock; each device keeps its latest HEALTH_HISTORY_LIMIT reports.',
      auth: 'api_key',
      params: c.DeviceIdParams,
      body: c.HealthBody,
      responses: { 201: { description: 'Stored; the device as it now is.', body: c.HealthRecordedResponse }, ...errors(...BODY, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const recorded = orProblem(
          await d.reportHealth.execute({
            wallet: principal!.wallet,
            deviceId: params.device_id,
            readings: {
              status: body.status ?? null,
              cpuPercent: body.cpu_percent ?? null,
              memoryPercent: body.memory_percent ?? null,
              batteryPercent: body.battery_percent ?? null,
              temperatureC: oneReading(body, 'temperature_c', 'temperature'),
              uptimeS: oneReading(body, 'uptime_s', 'uptime_seconds'),
              message: body.message ?? null,
              metrics: body.metrics ?? null,
              cpuTemperatureC: body.cpu_temperature ?? null,
              memoryUsedMb: body.memory_used_mb ?? null,
              memoryTotalMb: body.memory_total_mb ?? null,
              batteryCharging: body.battery_charging ?? null,
              diskPercent: body.disk_percent ?? null,
              networkConnected: body.network_connected ?? null,
              networkType: body.network_type ?? null,
              customMetrics: body.custom_metrics ?? null,
            },
          }),
          fleetProblem,
        );
        d.metrics.healthReports.inc({ status: recorded.report.status });
        return { status: 201, body: { report: healthBody(recorded.report), device: deviceBody(recorded.device) } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/fleet/devices/{device_id}/health',
      operationId: 'getDeviceHealth',
      tag: 'fleet',
      summary: 'A device\'s latest health report',
      description: '`health` is null when the device never reported. Another wallet\'s device is 404.',
      auth: jwt,
      params: c.DeviceIdParams,
      responses: { 200: { description: 'The latest report.', body: c.LatestHealthResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const latest = orProblem(await d.deviceHealth.execute({ wallet: principal!.wallet, deviceId: params.device_id }), fleetProblem);
        return { status: 200, body: { device_id: latest.deviceId, health: latest.health ? healthBody(latest.health) : null } };
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
        const page = orProblem(await d.listGroups.execute({ wallet: principal!.wallet, limit: query.limit ?? 50, ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) }), fleetProblem);
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
        const group = orProblem(await d.createGroup.execute({ wallet: principal!.wallet, name: body.name, description: body.description ?? null, color: body.color ?? null }), fleetProblem);
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
      handle: async ({ params, principal }) => ({ status: 200, body: groupBody(orProblem(await d.getGroup.execute({ wallet: principal!.wallet, groupId: params.group_id }), fleetProblem)) }),
    }),
    route({
      method: 'patch',
      path: '/v1/fleet/groups/{group_id}',
      operationId: 'editGroup',
      tag: 'fleet',
      summary: 'Rename a group, or change its description or colour',
      description: 'Members given are set, members left out stay; null clears the description or the colour. A name another group of the wallet has is 409.',
      auth: jwt,
      params: c.GroupIdParams,
      body: c.EditGroupBody,
      responses: { 200: { description: 'The group.', body: c.GroupResponse }, ...errors(...BODY, 404, 409, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const edit = {
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
          ...(body.color !== undefined ? { color: body.color } : {}),
        };
        return { status: 200, body: groupBody(orProblem(await d.updateGroup.execute({ wallet: principal!.wallet, groupId: params.group_id, edit }), fleetProblem)) };
      },
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
        const change = orProblem(await d.assign.execute({ wallet: principal!.wallet, groupId: params.group_id, deviceIds: body.device_ids }), fleetProblem);
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
        const change = orProblem(await d.unassign.execute({ wallet: principal!.wallet, groupId: params.group_id, deviceIds: body.device_ids }), fleetProblem);
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
        const deleted = orProblem(await d.deleteGroup.execute({ wallet: principal!.wallet, groupId: params.group_id }), fleetProblem);
        return { status: 200, body: { group_id: deleted.groupId, deleted: true, unassigned: deleted.unassigned } };
      },
    }),
  ];
}

/** One reading sent under either of its two names; both names with different values is a 422. */
function oneReading<K extends string, A extends string>(body: Partial<Record<K | A, number | null>>, name: K, alias: A): number | null {
  const [a, b] = [body[name] ?? null, body[alias] ?? null];
  if (a !== null && b !== null && a !== b) throw new HttpError(422, `${name} and ${alias} are one reading and must agree (got ${a} and ${b})`, { code: 'validation_error', path: alias });
  return a ?? b;
}
