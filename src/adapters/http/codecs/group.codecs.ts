import * as t from 'io-ts';
import { DEVICE_ID_MAX, isDeviceId } from '../../../domain/fleet/device.js';
import { MAX_DEVICES_PER_CHANGE } from '../../../domain/fleet/group.js';
import { boundedString, hasLoneSurrogate, LimitFromQuery, NullableString } from './common.codecs.js';
import { custom, Description, FleetCursor, Name, nullable } from './fleet-field.codecs.js';

/** The fleet's groups (/v1/fleet/groups…): what is sent and what comes back. */

export const GroupId = boundedString(1, 64, 'group_id');
export const GroupIdParams = t.type({ group_id: GroupId });
export const GroupListQuery = t.partial({ limit: LimitFromQuery, cursor: FleetCursor }, 'GroupListQuery');

const Color = custom<string>(
  'color',
  (u): u is string => typeof u === 'string',
  (u) => (typeof u === 'string' && /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/.test(u.trim()) ? u : undefined),
  () => 'must be a colour written #rgb or #rrggbb',
  {
    type: 'string',
    pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$',
    description: 'Kept as #rrggbb in lower case.',
    example: '#2f80ed',
  },
);

export const CreateGroupBody = t.intersection(
  [t.type({ name: Name }), t.partial({ description: nullable(Description, 'description'), color: nullable(Color, 'color') })],
  'CreateGroup',
);
export const EditGroupBody = t.partial({ name: Name, description: nullable(Description, 'description'), color: nullable(Color, 'color') }, 'EditGroup');

const DeviceIdList = custom<string[]>(
  'device_ids',
  (u): u is string[] => Array.isArray(u),
  (u) =>
    Array.isArray(u) &&
    u.length >= 1 &&
    u.length <= MAX_DEVICES_PER_CHANGE &&
    u.every((id) => typeof id === 'string' && isDeviceId(id) && !hasLoneSurrogate(id))
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

const GroupProps = { group_id: t.string, name: t.string, description: NullableString, color: NullableString, device_count: t.number, created_at: t.string };
/** A group as the overview lists it, without its device ids. */
export const GroupSummary = t.type(GroupProps, 'GroupSummary');
export const GroupResponse = t.type({ ...GroupProps, device_ids: t.array(t.string) }, 'Group');
export const GroupListResponse = t.type({ items: t.array(GroupResponse), next_cursor: NullableString }, 'GroupList');
export const MembershipResponse = t.type({ group: GroupResponse, changed: t.number }, 'GroupMembershipChange');
export const DeleteGroupResponse = t.type({ group_id: t.string, deleted: t.boolean, unassigned: t.number }, 'GroupDeleted');
