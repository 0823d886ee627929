import type { GetFleetOverview } from '../../../application/fleet/get-fleet-overview.js';
import * as c from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { deviceRoutes, type DeviceRouteDeps } from './device-routes.js';
import { AUTHED } from './error-responses.js';
import { overviewBody } from './fleet-bodies.js';
import { fleetErrors as errors, fleetProblem } from './fleet-problems.js';
import { groupRoutes, type GroupRouteDeps } from './group-routes.js';
import { healthRoutes, type HealthRouteDeps } from './health-routes.js';

export interface FleetRouteDeps extends DeviceRouteDeps, HealthRouteDeps, GroupRouteDeps {
  readonly overview: GetFleetOverview;
}

/** The fleet family (/v1/fleet…): the overview, then its devices, their health, and groups. */
export function fleetRoutes(d: FleetRouteDeps): AnyRoute[] {
  const jwt = 'jwt' as const;
  return [
    route({
      method: 'get',
      path: '/v1/fleet',
      operationId: 'getFleetOverview',
      heavyRead: true,
      tag: 'fleet',
      summary: 'Fleet overview: a page of devices, every group, totals',
      description:
        'Devices are listed in the fleet\'s order (sort_order, set with PATCH /v1/fleet/devices/order; then by id, devices never placed last), a page at a time (limit 1–200, default 50; next_cursor for the next page), optionally only one group\'s (group_id, or "none") or only some statuses (status=offline,error). groups lists every group of the wallet (at most 500); summary counts the whole fleet by status and by group. Status: offline when not heard from (proof or health report) for DEVICE_OFFLINE_AFTER_S; else error or degraded when the last health report says so; else online within DEVICE_ONLINE_WINDOW_S, warning beyond.',
      auth: jwt,
      query: c.OverviewQuery,
      responses: { 200: { description: 'The overview.', body: c.OverviewResponse }, ...errors(400, 404, 422, ...AUTHED) },
      handle: async ({ query, principal }) => {
        const overview = orProblem(
          await d.overview.execute({
            wallet: principal.wallet,
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
    ...deviceRoutes(d),
    ...healthRoutes(d),
    ...groupRoutes(d),
  ];
}
