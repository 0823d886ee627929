import * as E from 'fp-ts/lib/Either.js';
import {
  countByStatus,
  cutoffsAt,
  DEVICE_STATUSES,
  pairsWithStatus,
  type DeviceStatus,
  type StatusCounts,
  type StatusWindows,
} from '../../domain/fleet/device-status.js';
import type { Device } from '../../domain/fleet/device.js';
import { MAX_GROUPS_PER_WALLET } from '../../domain/fleet/group.js';
import type { Clock } from '../ports/clock.js';
import type { DeviceBucket, DeviceQuery, DeviceStore } from '../ports/device-store.js';
import type { GroupNotFound, GroupStore, GroupView } from '../ports/group-store.js';
import { viewOf, type DeviceView } from './device-view.js';
import type { InvalidCursor } from './fleet-errors.js';
import { decodeFleetCursor, encodeFleetCursor } from './fleet-cursor.js';

export interface OverviewInput {
  readonly wallet: string;
  readonly limit: number;
  readonly cursor?: string;
  /** Only this group's devices; null: only devices in no group. */
  readonly groupId?: string | null;
  /** Only devices with one of these statuses. */
  readonly statuses?: readonly DeviceStatus[];
}

export interface GroupTotals {
  readonly groupId: string | null;
  readonly deviceCount: number;
  readonly byStatus: StatusCounts;
}

export interface FleetSummary {
  readonly totalDevices: number;
  readonly byStatus: StatusCounts;
  /** Every group of the wallet, then the devices in no group (groupId null) when there are any. */
  readonly byGroup: readonly GroupTotals[];
  readonly groupCount: number;
}

export interface FleetOverview {
  /** One page of the shown devices, by sort order then id; the summary covers the whole fleet. */
  readonly devices: readonly DeviceView[];
  readonly nextCursor: string | null;
  readonly groups: readonly GroupView[];
  readonly summary: FleetSummary;
  readonly generatedAtMs: number;
  readonly windows: StatusWindows;
}

/**
 * The dashboard's first screen. Bounded for fleets of thousands: one page of devices, the
 * wallet's groups (at most MAX_GROUPS_PER_WALLET) and totals the database counts, so the
 * work does not grow with the number of proofs and grows only mildly with devices.
 */
export class GetFleetOverview {
  constructor(
    private readonly devices: DeviceStore,
    private readonly groups: GroupStore,
    private readonly clock: Clock,
    private readonly windows: StatusWindows,
  ) {}

  async execute(input: OverviewInput): Promise<E.Either<InvalidCursor | GroupNotFound, FleetOverview>> {
    const after = input.cursor === undefined ? undefined : devicePosition(decodeFleetCursor('device', input.cursor));
    if (after === null) return E.left({ _tag: 'InvalidCursor' });
    if (typeof input.groupId === 'string' && !(await this.groups.getGroup(input.wallet, input.groupId))) {
      return E.left({ _tag: 'GroupNotFound', groupId: input.groupId });
    }
    const nowMs = this.clock.nowMs();
    const cutoffs = cutoffsAt(nowMs, this.windows);
    const query: DeviceQuery = {
      limit: input.limit,
      ...(after !== undefined ? { afterDeviceId: after.deviceId, afterSortOrder: after.sortOrder } : {}),
      ...(input.groupId !== undefined ? { groupId: input.groupId } : {}),
      ...(input.statuses && input.statuses.length < DEVICE_STATUSES.length ? { states: { cutoffs, pairs: pairsWithStatus(input.statuses) } } : {}),
    };
    const [page, buckets, groups] = await Promise.all([
      this.devices.listDevices(input.wallet, query),
      this.devices.deviceBuckets(input.wallet, cutoffs),
      this.groups.listGroups(input.wallet, { limit: MAX_GROUPS_PER_WALLET, withDeviceIds: false }),
    ]);
    return E.right({
      devices: page.items.map((d) => viewOf(d, cutoffs)),
      nextCursor: page.next === null ? null : encodeFleetCursor('device', positionOf(page.items[page.items.length - 1]!)),
      groups: groups.items,
      summary: summarize(buckets, groups.items),
      generatedAtMs: nowMs,
      windows: this.windows,
    });
  }
}

function summarize(buckets: readonly DeviceBucket[], groups: readonly GroupView[]): FleetSummary {
  const byGroupId = new Map<string | null, DeviceBucket[]>();
  for (const b of buckets) byGroupId.set(b.groupId, [...(byGroupId.get(b.groupId) ?? []), b]);
  const totals = (groupId: string | null): GroupTotals => {
    const own = byGroupId.get(groupId) ?? [];
    return { groupId, deviceCount: own.reduce((n, b) => n + b.count, 0), byStatus: countByStatus(own) };
  };
  const ungrouped = totals(null);
  return {
    totalDevices: buckets.reduce((n, b) => n + b.count, 0),
    byStatus: countByStatus(buckets),
    byGroup: [...groups.map((g) => totals(g.groupId)), ...(ungrouped.deviceCount > 0 ? [ungrouped] : [])],
    groupCount: groups.length,
  };
}

/**
 * A device's place in the list, as a cursor holds it: "<sort order>:<device id>", the order
 * empty for an unordered device. The order is digits, so the first colon ends it.
 */
function positionOf(d: Pick<Device, 'sortOrder' | 'deviceId'>): string {
  return `${d.sortOrder ?? ''}:${d.deviceId}`;
}

function devicePosition(text: string | null): { sortOrder: number | null; deviceId: string } | null {
  const m = text === null ? null : /^(\d{0,10}):([\s\S]+)$/.exec(text);
  if (!m) return null;
  return { sortOrder: m[1] === '' ? null : Number(m[1]), deviceId: m[2]! };
}
