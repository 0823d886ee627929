import * as E from 'fp-ts/lib/Either.js';
import type {
  GroupChange,
  GroupChanges,
  GroupLimitReached,
  GroupNameTaken,
  GroupNotFound,
  GroupPage,
  GroupQuery,
  GroupStore,
  GroupView,
  NewGroup,
  UnknownDevices,
} from '../../application/ports/group-store.js';
import type { Group } from '../../domain/fleet/group.js';
import { byteOrder, newGroupId } from '../random-ids.js';
import type { MemoryFleet, MutableDevice } from './memory-fleet.js';

/** In-memory GroupStore for tests and embedding; passes the same contract suite as the SQL store. */
export class MemoryGroupStore implements GroupStore {
  constructor(private readonly fleet: MemoryFleet) {}

  async createGroup(wallet: string, draft: NewGroup, maxGroups: number): Promise<E.Either<GroupNameTaken | GroupLimitReached, Group>> {
    const groups = this.fleet.walletGroups(wallet);
    if ([...groups.values()].some((g) => g.name === draft.name)) return E.left({ _tag: 'GroupNameTaken', name: draft.name });
    if (groups.size >= maxGroups) return E.left({ _tag: 'GroupLimitReached', limit: maxGroups });
    const group: Group = {
      wallet,
      groupId: newGroupId(),
      name: draft.name,
      description: draft.description,
      createdAtMs: draft.createdAtMs,
      color: draft.color ?? null,
    };
    groups.set(group.groupId, group);
    return E.right({ ...group });
  }

  async getGroup(wallet: string, groupId: string): Promise<GroupView | null> {
    const group = this.fleet.walletGroups(wallet).get(groupId);
    return group ? this.view(group, true) : null;
  }

  async listGroups(wallet: string, q: GroupQuery): Promise<GroupPage> {
    const sorted = [...this.fleet.walletGroups(wallet).values()]
      .filter((g) => q.afterName === undefined || byteOrder(g.name, q.afterName) > 0)
      .sort((a, b) => byteOrder(a.name, b.name));
    const page = sorted.slice(0, q.limit);
    return { items: page.map((g) => this.view(g, q.withDeviceIds)), next: sorted.length > q.limit ? page[page.length - 1]!.name : null };
  }

  async countGroups(wallet: string): Promise<number> {
    return this.fleet.walletGroups(wallet).size;
  }

  async assignDevices(wallet: string, groupId: string, ids: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>> {
    return this.change(wallet, groupId, ids, (d) => (d.groupId === groupId ? false : ((d.groupId = groupId), true)));
  }

  async unassignDevices(wallet: string, groupId: string, ids: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>> {
    return this.change(wallet, groupId, ids, (d) => (d.groupId === groupId ? ((d.groupId = null), true) : false));
  }

  async updateGroup(wallet: string, groupId: string, changes: GroupChanges): Promise<E.Either<GroupNotFound | GroupNameTaken, GroupView>> {
    const groups = this.fleet.walletGroups(wallet);
    const group = groups.get(groupId);
    if (!group) return E.left({ _tag: 'GroupNotFound', groupId });
    if (changes.name !== undefined && [...groups.values()].some((g) => g.groupId !== groupId && g.name === changes.name))
      return E.left({ _tag: 'GroupNameTaken', name: changes.name });
    const updated: Group = {
      ...group,
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.color !== undefined ? { color: changes.color } : {}),
    };
    groups.set(groupId, updated);
    return E.right(this.view(updated, true));
  }

  async deleteGroup(wallet: string, groupId: string): Promise<{ readonly unassigned: number } | null> {
    if (!this.fleet.walletGroups(wallet).delete(groupId)) return null;
    let unassigned = 0;
    for (const d of this.fleet.walletDevices(wallet).values()) {
      if (d.groupId === groupId) {
        d.groupId = null;
        unassigned++;
      }
    }
    return { unassigned };
  }

  private change(
    wallet: string,
    groupId: string,
    ids: readonly string[],
    apply: (d: MutableDevice) => boolean,
  ): E.Either<GroupNotFound | UnknownDevices, GroupChange> {
    const group = this.fleet.walletGroups(wallet).get(groupId);
    if (!group) return E.left({ _tag: 'GroupNotFound', groupId });
    const devices = this.fleet.walletDevices(wallet);
    const unknown = ids.filter((id) => !devices.has(id));
    if (unknown.length > 0) return E.left({ _tag: 'UnknownDevices', deviceIds: unknown });
    let changed = 0;
    for (const id of ids) if (apply(devices.get(id)!)) changed++;
    return E.right({ group: this.view(group, true), changed });
  }

  private view(group: Group, withDeviceIds: boolean): GroupView {
    const ids = [...this.fleet.walletDevices(group.wallet).values()]
      .filter((d) => d.groupId === group.groupId)
      .map((d) => d.deviceId)
      .sort(byteOrder);
    return { ...group, deviceCount: ids.length, deviceIds: withDeviceIds ? ids : null };
  }
}
