import type { DeviceView } from '../../../application/fleet/device-view.js';
import type { GroupView } from '../../../application/ports/group-store.js';
import { MAX_GROUPS_PER_WALLET } from '../../../domain/fleet/group.js';
import * as v1 from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, BODY } from '../routes/error-responses.js';
import { fleetErrors as errors, fleetProblem } from '../routes/fleet-problems.js';
import type { FleetRouteDeps } from '../routes/fleet-routes.js';
import { sdkReadings } from '../routes/health-routes.js';
import { summaryBody } from '../routes/proof-routes.js';
import * as c from './acto.codecs.js';
import { deviceHealth, deviceInfo, group } from './acto-bodies.js';

/** The same use cases as /v1's fleet routes (it neither edits a device's description nor a group). */
export type ActoFleetRouteDeps = Omit<FleetRouteDeps, 'editDevice' | 'updateGroup' | 'getGroup'> & {
  /** Distinct task ids among the wallet's proofs: the overview's total_tasks. */
  readonly countTasks: (wallet: string) => Promise<number>;
};

/** Devices the overview lists: ACTO lists a fleet whole, without pages. */
export const ACTO_MAX_DEVICES = 1000;

/** The ACTO SDK's `client.fleet` calls, with an API key as the SDK sends it (a JWT works too). */
export function actoFleetRoutes(d: ActoFleetRouteDeps): AnyRoute[] {
  const allGroups = async (wallet: string): Promise<GroupView[]> => {
    const out: GroupView[] = [];
    let cursor: string | undefined;
    do {
      const page = orProblem(await d.listGroups.execute({ wallet, limit: 200, ...(cursor !== undefined ? { cursor } : {}) }), fleetProblem);
      out.push(...page.items);
      cursor = page.nextCursor ?? undefined;
    } while (cursor !== undefined && out.length < MAX_GROUPS_PER_WALLET);
    return out;
  };
  const names = (groups: readonly GroupView[]) => new Map(groups.map((g) => [g.groupId, g.name]));

  return [
    route({
      method: 'get',
      path: '/acto/v1/fleet',
      operationId: 'actoFleetOverview',
      heavyRead: true,
      tag: 'acto fleet',
      summary: 'Fleet overview (client.fleet.get_overview)',
      description: `Devices in the fleet's order (sort_order, then id; at most ${ACTO_MAX_DEVICES}), every group, and totals. active_devices counts the online; warning_devices the warning, degraded and error; offline_devices the offline.`,
      auth: 'api_key',
      scope: 'fleet:read',
      responses: { 200: { description: 'The overview.', body: c.OverviewResponse }, ...errors(...AUTHED) },
      handle: async ({ principal }) => {
        const wallet = principal.wallet;
        const devices: DeviceView[] = [];
        let cursor: string | undefined;
        let first;
        do {
          const page = orProblem(await d.overview.execute({ wallet, limit: 200, ...(cursor !== undefined ? { cursor } : {}) }), fleetProblem);
          first ??= page;
          devices.push(...page.devices);
          cursor = page.nextCursor ?? undefined;
        } while (cursor !== undefined && devices.length < ACTO_MAX_DEVICES);
        const [groups, totalTasks] = await Promise.all([allGroups(wallet), d.countTasks(wallet)]);
        const s = first.summary;
        return {
          status: 200,
          body: {
            devices: devices.slice(0, ACTO_MAX_DEVICES).map((v) => deviceInfo(v, names(groups))),
            groups: groups.map(group),
            summary: {
              total_devices: s.totalDevices,
              active_devices: s.byStatus.online,
              warning_devices: s.byStatus.warning + s.byStatus.degraded + s.byStatus.error,
              offline_devices: s.byStatus.offline,
              total_proofs: devices.reduce((n, v) => n + v.device.proofCount, 0),
              total_tasks: totalTasks,
              total_groups: s.groupCount,
            },
          },
        };
      },
    }),
    route({
      method: 'get',
      path: '/acto/v1/fleet/devices/{device_id}',
      operationId: 'actoGetDevice',
      tag: 'acto fleet',
      summary: 'A device (client.fleet.get_device)',
      description: "recent_logs are the device's latest proofs (as the proof list shows them), task_history their task ids.",
      auth: 'api_key',
      scope: 'fleet:read',
      params: v1.DeviceIdParams,
      responses: { 200: { description: 'The device.', body: c.DeviceDetailResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const wallet = principal.wallet;
        const found = orProblem(await d.getDevice.execute({ wallet, deviceId: params.device_id, healthLimit: 1, proofLimit: 20 }), fleetProblem);
        const groups = found.device.groupId === null ? [] : await allGroups(wallet);
        return {
          status: 200,
          body: {
            ...deviceInfo(found, names(groups)),
            recent_logs: found.recentProofs.map(summaryBody),
            task_history: [...new Set(found.recentProofs.map((p) => p.taskId))],
          },
        };
      },
    }),
    route({
      method: 'patch',
      path: '/acto/v1/fleet/devices/{device_id}/name',
      operationId: 'actoRenameDevice',
      tag: 'acto fleet',
      summary: 'Rename a device (client.fleet.rename_device)',
      auth: 'api_key',
      scope: 'fleet:write',
      params: v1.DeviceIdParams,
      body: v1.RenameBody,
      responses: { 200: { description: 'Renamed.', body: c.RenameResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const view = orProblem(await d.rename.execute({ wallet: principal.wallet, deviceId: params.device_id, name: body.name }), fleetProblem);
        return { status: 200, body: { success: true, device_id: view.device.deviceId, name: view.device.name ?? body.name } };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/fleet/devices/{device_id}/health',
      operationId: 'actoReportHealth',
      tag: 'acto fleet',
      summary: "Report a device's health (client.fleet.report_health)",
      description: 'A robot reports its own health with its API key. Creates the device if the wallet has not seen it.',
      auth: 'api_key',
      scope: 'health:write',
      params: v1.DeviceIdParams,
      body: c.HealthBody,
      responses: { 200: { description: 'Stored.', body: c.HealthReportResponse }, ...errors(...BODY, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        // No status: the SDK sends none, and the registry derives it as for any report without one.
        const recorded = orProblem(
          await d.reportHealth.execute({
            wallet: principal.wallet,
            deviceId: params.device_id,
            robotIds: principal.grant.robotIds,
            readings: { ...sdkReadings(body), uptimeS: body.uptime_seconds ?? null, temperatureC: body.temperature ?? null },
          }),
          fleetProblem,
        );
        d.metrics.healthReports.inc({ status: recorded.report.status });
        return { status: 200, body: { success: true, device_id: params.device_id, health: deviceHealth(recorded.report) } };
      },
    }),
    route({
      method: 'get',
      path: '/acto/v1/fleet/devices/{device_id}/health',
      operationId: 'actoGetHealth',
      tag: 'acto fleet',
      summary: "A device's latest health (client.fleet.get_health)",
      description: 'Every metric null (custom_metrics empty) when the device has not reported.',
      auth: 'api_key',
      scope: 'fleet:read',
      params: v1.DeviceIdParams,
      responses: { 200: { description: 'The latest report.', body: c.DeviceHealthResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const found = orProblem(await d.deviceHealth.execute({ wallet: principal.wallet, deviceId: params.device_id }), fleetProblem);
        return { status: 200, body: { device_id: found.deviceId, health: deviceHealth(found.health) } };
      },
    }),
    route({
      method: 'delete',
      path: '/acto/v1/fleet/devices/{device_id}',
      operationId: 'actoDeleteDevice',
      tag: 'acto fleet',
      summary: 'Hide a device (client.fleet.delete_device)',
      description:
        'As ACTO: the device leaves the fleet list and its group; its proofs and health history stay, and it comes back, ungrouped, with its next proof or health report.',
      auth: 'api_key',
      scope: 'fleet:write',
      params: v1.DeviceIdParams,
      responses: { 200: { description: 'Hidden.', body: c.DeleteDeviceResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const hidden = orProblem(await d.hideDevice.execute({ wallet: principal.wallet, deviceId: params.device_id }), fleetProblem);
        return { status: 200, body: { success: true, device_id: hidden.deviceId } };
      },
    }),
    route({
      method: 'patch',
      path: '/acto/v1/fleet/devices/order',
      operationId: 'actoReorderDevices',
      tag: 'acto fleet',
      summary: 'Order devices (client.fleet.reorder_devices)',
      description: 'The overview lists devices by sort_order (smallest first), then by id. All or nothing: unknown ids give 404 naming them.',
      auth: 'api_key',
      scope: 'fleet:write',
      body: c.ReorderBody,
      responses: { 200: { description: 'Ordered; updated counts the devices.', body: c.ReorderResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const orders = body.device_orders.map((o) => ({ deviceId: o.device_id, sortOrder: o.sort_order }));
        const done = orProblem(await d.orderDevices.execute({ wallet: principal.wallet, orders }), fleetProblem);
        return { status: 200, body: { success: true, updated: done.updated } };
      },
    }),
    route({
      method: 'get',
      path: '/acto/v1/fleet/groups',
      operationId: 'actoListGroups',
      tag: 'acto fleet',
      summary: 'Every group with its devices (client.fleet.list_groups)',
      auth: 'api_key',
      scope: 'fleet:read',
      responses: { 200: { description: 'The groups, by name.', body: c.GroupListResponse }, ...errors(...AUTHED) },
      handle: async ({ principal }) => {
        const groups = await allGroups(principal.wallet);
        return { status: 200, body: { groups: groups.map(group), total: groups.length } };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/fleet/groups',
      operationId: 'actoCreateGroup',
      tag: 'acto fleet',
      summary: 'Create a group (client.fleet.create_group)',
      auth: 'api_key',
      scope: 'fleet:write',
      body: v1.CreateGroupBody,
      responses: { 200: { description: 'The new, empty group.', body: c.CreateGroupResponse }, ...errors(...BODY, 409, ...AUTHED) },
      handle: async ({ body, principal }) => {
        const g = orProblem(await d.createGroup.execute({ wallet: principal.wallet, name: body.name, description: body.description ?? null }), fleetProblem);
        return { status: 200, body: { success: true, group: group({ ...g, deviceCount: 0, deviceIds: [] }) } };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/fleet/groups/{group_id}/assign',
      operationId: 'actoAssignDevices',
      tag: 'acto fleet',
      summary: 'Put devices in a group (client.fleet.assign_devices)',
      description: 'All or nothing, as POST /v1/fleet/groups/{group_id}/assign; assigned lists the ids now in the group.',
      auth: 'api_key',
      scope: 'fleet:write',
      params: v1.GroupIdParams,
      body: v1.DeviceIdsBody,
      responses: { 200: { description: 'Assigned.', body: c.MembershipResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const change = orProblem(await d.assign.execute({ wallet: principal.wallet, groupId: params.group_id, deviceIds: body.device_ids }), fleetProblem);
        return { status: 200, body: { success: true, group_id: params.group_id, assigned: [...new Set(body.device_ids)], changed: change.changed } };
      },
    }),
    route({
      method: 'post',
      path: '/acto/v1/fleet/groups/{group_id}/unassign',
      operationId: 'actoUnassignDevices',
      tag: 'acto fleet',
      summary: 'Take devices out of a group (client.fleet.unassign_devices)',
      description: 'assigned lists the ids left in the group; unassigned the ids named.',
      auth: 'api_key',
      scope: 'fleet:write',
      params: v1.GroupIdParams,
      body: v1.DeviceIdsBody,
      responses: { 200: { description: 'Unassigned.', body: c.MembershipResponse }, ...errors(...BODY, 404, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const change = orProblem(await d.unassign.execute({ wallet: principal.wallet, groupId: params.group_id, deviceIds: body.device_ids }), fleetProblem);
        return {
          status: 200,
          body: {
            success: true,
            group_id: params.group_id,
            assigned: change.group.deviceIds ?? [],
            unassigned: [...new Set(body.device_ids)],
            changed: change.changed,
          },
        };
      },
    }),
    route({
      method: 'delete',
      path: '/acto/v1/fleet/groups/{group_id}',
      operationId: 'actoDeleteGroup',
      tag: 'acto fleet',
      summary: 'Delete a group (client.fleet.delete_group)',
      auth: 'api_key',
      scope: 'fleet:write',
      params: v1.GroupIdParams,
      responses: { 200: { description: 'Deleted; its devices are ungrouped.', body: c.DeleteGroupResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const deleted = orProblem(await d.deleteGroup.execute({ wallet: principal.wallet, groupId: params.group_id }), fleetProblem);
        return { status: 200, body: { success: true, group_id: deleted.groupId, devices_unassigned: deleted.unassigned } };
      },
    }),
  ];
}
