import type { AssignDevices } from '../../../application/fleet/assign-devices.js';
import type { CreateGroup } from '../../../application/fleet/create-group.js';
import type { DeleteGroup } from '../../../application/fleet/delete-group.js';
import type { GetGroup } from '../../../application/fleet/get-group.js';
import type { ListGroups } from '../../../application/fleet/list-groups.js';
import type { UnassignDevices } from '../../../application/fleet/unassign-devices.js';
import type { UpdateGroup } from '../../../application/fleet/update-group.js';
import * as c from '../codecs/fleet.codecs.js';
import { orProblem } from '../http-error.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, BODY } from './error-responses.js';
import { groupBody } from './fleet-bodies.js';
import { fleetErrors as errors, fleetProblem } from './fleet-problems.js';

export interface GroupRouteDeps {
  readonly listGroups: ListGroups;
  readonly getGroup: GetGroup;
  readonly createGroup: CreateGroup;
  readonly updateGroup: UpdateGroup;
  readonly assign: AssignDevices;
  readonly unassign: UnassignDevices;
  readonly deleteGroup: DeleteGroup;
}

/** The fleet's groups: list, create, edit, fill, empty and delete them. */
export function groupRoutes(d: GroupRouteDeps): AnyRoute[] {
  const jwt = 'jwt' as const;
  return [
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
        const page = orProblem(
          await d.listGroups.execute({ wallet: principal.wallet, limit: query.limit ?? 50, ...(query.cursor !== undefined ? { cursor: query.cursor } : {}) }),
          fleetProblem,
        );
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
        const group = orProblem(
          await d.createGroup.execute({ wallet: principal.wallet, name: body.name, description: body.description ?? null, color: body.color ?? null }),
          fleetProblem,
        );
        return {
          status: 201,
          body: groupBody({ ...group, deviceCount: 0, deviceIds: [] }),
          headers: { Location: `/v1/fleet/groups/${encodeURIComponent(group.groupId)}` },
        };
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
      handle: async ({ params, principal }) => ({
        status: 200,
        body: groupBody(orProblem(await d.getGroup.execute({ wallet: principal.wallet, groupId: params.group_id }), fleetProblem)),
      }),
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
        return {
          status: 200,
          body: groupBody(orProblem(await d.updateGroup.execute({ wallet: principal.wallet, groupId: params.group_id, edit }), fleetProblem)),
        };
      },
    }),
    route({
      method: 'post',
      path: '/v1/fleet/groups/{group_id}/assign',
      operationId: 'assignDevices',
      tag: 'fleet',
      summary: 'Put devices in a group',
      description:
        'A device is in at most one group: assigning moves it out of its previous one. All or nothing: ids the wallet has no device for give 404 naming them, and nothing changes.',
      auth: jwt,
      params: c.GroupIdParams,
      body: c.DeviceIdsBody,
      responses: {
        200: { description: 'The group after the change; changed counts devices that moved.', body: c.MembershipResponse },
        ...errors(...BODY, 404, ...AUTHED),
      },
      handle: async ({ params, body, principal }) => {
        const change = orProblem(await d.assign.execute({ wallet: principal.wallet, groupId: params.group_id, deviceIds: body.device_ids }), fleetProblem);
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
      responses: {
        200: { description: 'The group after the change; changed counts devices taken out.', body: c.MembershipResponse },
        ...errors(...BODY, 404, ...AUTHED),
      },
      handle: async ({ params, body, principal }) => {
        const change = orProblem(await d.unassign.execute({ wallet: principal.wallet, groupId: params.group_id, deviceIds: body.device_ids }), fleetProblem);
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
        const deleted = orProblem(await d.deleteGroup.execute({ wallet: principal.wallet, groupId: params.group_id }), fleetProblem);
        return { status: 200, body: { group_id: deleted.groupId, deleted: true, unassigned: deleted.unassigned } };
      },
    }),
  ];
}
