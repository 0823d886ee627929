import type { EditDevice } from '../../../application/fleet/edit-device.js';
import type { GetDevice } from '../../../application/fleet/get-device.js';
import type { HideDevice } from '../../../application/fleet/hide-device.js';
import type { OrderDevices } from '../../../application/fleet/order-devices.js';
import type { RenameDevice } from '../../../application/fleet/rename-device.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import * as c from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, BODY } from './error-responses.js';
import { deviceBody, healthBody, proofSummaryBody } from './fleet-bodies.js';
import { fleetErrors as errors, fleetProblem } from './fleet-problems.js';

export interface DeviceRouteDeps {
  readonly getDevice: GetDevice;
  readonly rename: RenameDevice;
  readonly editDevice: EditDevice;
  readonly hideDevice: HideDevice;
  readonly orderDevices: OrderDevices;
}

/** One device of the fleet: read it, name, describe, type, order or hide it. */
export function deviceRoutes(d: DeviceRouteDeps): AnyRoute[] {
  const jwt = 'jwt' as const;
  return [
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
        const done = orProblem(
          await d.orderDevices.execute({
            wallet: principal.wallet,
            orders: body.device_orders.map((o) => ({ deviceId: o.device_id, sortOrder: o.sort_order })),
          }),
          fleetProblem,
        );
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
        const found = orProblem(
          await d.getDevice.execute({
            wallet: principal.wallet,
            deviceId: params.device_id,
            healthLimit: query.health_limit ?? 20,
            proofLimit: query.proof_limit ?? 10,
          }),
          fleetProblem,
        );
        return {
          status: 200,
          body: { ...deviceBody(found), health_history: found.health.map(healthBody), recent_proofs: found.recentProofs.map(proofSummaryBody) },
        };
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
        const device = orProblem(await d.editDevice.execute({ wallet: principal.wallet, deviceId: params.device_id, edit }), fleetProblem);
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
        const hidden = orProblem(await d.hideDevice.execute({ wallet: principal.wallet, deviceId: params.device_id }), fleetProblem);
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
        const device = orProblem(await d.rename.execute({ wallet: principal.wallet, deviceId: params.device_id, name: body.name }), fleetProblem);
        return { status: 200, body: deviceBody(device) };
      },
    }),
  ];
}
