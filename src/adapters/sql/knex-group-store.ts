import * as E from 'fp-ts/lib/Either.js';
import type { Knex } from 'knex';
import type {
  GroupChange,
  GroupChanges,
  GroupLimitReached,
  GroupNameTaken,
  GroupNotFound,
  GroupPage,
  GroupQuery,
  GroupView,
  NewGroup,
  UnknownDevices,
  GroupStore,
} from '../../application/ports/group-store.js';
import type { Group } from '../../domain/fleet/group.js';
import { newGroupId } from '../random-ids.js';
import type { Database } from './database.js';
import { int, toGroup, type GroupRow } from './fleet-rows.js';

type Db = Knex | Knex.Transaction;

/**
 * GroupStore on SQLite or PostgreSQL. Changes that touch several devices lock the group row
 * first, then the devices in key order (PostgreSQL), the order the proof writers use:
 * concurrent changes and proof submissions wait for each other instead of deadlocking. SQLite
 * has one connection, so its transactions are already serial.
 */
export class KnexGroupStore implements GroupStore {
  private readonly knex: Knex;
  private readonly postgres: boolean;

  constructor(db: Pick<Database, 'knex' | 'dialect'>) {
    this.knex = db.knex;
    this.postgres = db.dialect === 'postgres';
  }

  async createGroup(wallet: string, draft: NewGroup, maxGroups: number): Promise<E.Either<GroupNameTaken | GroupLimitReached, Group>> {
    return this.knex.transaction(async (trx) => {
      await this.takeSqliteWriteLock(trx);
      // Serializes creates per wallet, so two racing creates cannot both pass the limit.
      if (this.postgres) await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`proof-registry:groups:${wallet}`]);
      const taken = await trx('device_groups').select('group_id').where({ wallet, name: draft.name }).first();
      if (taken) return E.left<GroupNameTaken>({ _tag: 'GroupNameTaken', name: draft.name });
      if ((await this.countIn(trx, wallet)) >= maxGroups) return E.left<GroupLimitReached>({ _tag: 'GroupLimitReached', limit: maxGroups });
      const row: GroupRow = {
        wallet,
        group_id: newGroupId(),
        name: draft.name,
        description: draft.description,
        created_at_ms: draft.createdAtMs,
        color: draft.color ?? null,
      };
      await trx('device_groups').insert(row);
      return E.right(toGroup(row));
    });
  }

  getGroup(wallet: string, groupId: string): Promise<GroupView | null> {
    return this.getIn(this.knex, wallet, groupId);
  }

  async listGroups(wallet: string, q: GroupQuery): Promise<GroupPage> {
    const query = this.knex<GroupRow>('device_groups').where('wallet', wallet);
    if (q.afterName !== undefined) query.where('name', '>', q.afterName);
    const rows = await query.orderBy('name', 'asc').limit(q.limit + 1);
    const page = rows.slice(0, q.limit).map(toGroup);
    const ids = page.map((g) => g.groupId);
    const counts = new Map<string, number>();
    const members = new Map<string, string[]>();
    if (ids.length > 0) {
      const base = () => this.knex('devices').where('wallet', wallet).whereIn('group_id', ids);
      if (q.withDeviceIds) {
        const rows: Array<{ group_id: string; device_id: string }> = await base().select('group_id', 'device_id').orderBy('device_id');
        for (const r of rows) members.set(r.group_id, [...(members.get(r.group_id) ?? []), r.device_id]);
        for (const [id, list] of members) counts.set(id, list.length);
      } else {
        const rows = (await base().select('group_id').count('* as n').groupBy('group_id')) as unknown as Array<{ group_id: string; n: number | string }>;
        for (const r of rows) counts.set(r.group_id, int(r.n, 'count'));
      }
    }
    return {
      items: page.map((g) => ({ ...g, deviceCount: counts.get(g.groupId) ?? 0, deviceIds: q.withDeviceIds ? (members.get(g.groupId) ?? []) : null })),
      next: rows.length > q.limit ? page[page.length - 1]!.name : null,
    };
  }

  countGroups(wallet: string): Promise<number> {
    return this.countIn(this.knex, wallet);
  }

  assignDevices(wallet: string, groupId: string, deviceIds: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>> {
    return this.change(wallet, groupId, deviceIds, 'assign');
  }

  unassignDevices(wallet: string, groupId: string, deviceIds: readonly string[]): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>> {
    return this.change(wallet, groupId, deviceIds, 'unassign');
  }

  private async change(
    wallet: string,
    groupId: string,
    deviceIds: readonly string[],
    kind: 'assign' | 'unassign',
  ): Promise<E.Either<GroupNotFound | UnknownDevices, GroupChange>> {
    return this.knex.transaction(async (trx) => {
      await this.takeSqliteWriteLock(trx);
      if (!(await this.lockGroup(trx, wallet, groupId))) return E.left<GroupNotFound>({ _tag: 'GroupNotFound', groupId });
      const known = this.lockable(trx('devices').select('device_id').where('wallet', wallet).whereIn('device_id', deviceIds).orderBy('device_id'));
      const found = new Set(((await known) as Array<{ device_id: string }>).map((r) => r.device_id));
      const unknown = deviceIds.filter((id) => !found.has(id));
      if (unknown.length > 0) return E.left<UnknownDevices>({ _tag: 'UnknownDevices', deviceIds: unknown });
      const targets = trx('devices').where('wallet', wallet).whereIn('device_id', deviceIds);
      const changed =
        kind === 'assign'
          ? await targets.andWhere((b) => b.whereNull('group_id').orWhereNot('group_id', groupId)).update({ group_id: groupId })
          : await targets.andWhere('group_id', groupId).update({ group_id: null });
      const group = await this.getIn(trx, wallet, groupId);
      return E.right({ group: group!, changed });
    });
  }

  async updateGroup(wallet: string, groupId: string, changes: GroupChanges): Promise<E.Either<GroupNotFound | GroupNameTaken, GroupView>> {
    return this.knex.transaction(async (trx) => {
      await this.takeSqliteWriteLock(trx);
      if (!(await this.lockGroup(trx, wallet, groupId))) return E.left<GroupNotFound>({ _tag: 'GroupNotFound', groupId });
      if (changes.name !== undefined) {
        // Serialized with creates of the wallet, which take the same lock.
        if (this.postgres) await trx.raw('select pg_advisory_xact_lock(hashtext(?))', [`proof-registry:groups:${wallet}`]);
        const taken = await trx('device_groups').select('group_id').where({ wallet, name: changes.name }).whereNot('group_id', groupId).first();
        if (taken) return E.left<GroupNameTaken>({ _tag: 'GroupNameTaken', name: changes.name });
      }
      const set = {
        ...(changes.name !== undefined ? { name: changes.name } : {}),
        ...(changes.description !== undefined ? { description: changes.description } : {}),
        ...(changes.color !== undefined ? { color: changes.color } : {}),
      };
      if (Object.keys(set).length > 0) await trx('device_groups').where({ wallet, group_id: groupId }).update(set);
      return E.right((await this.getIn(trx, wallet, groupId))!);
    });
  }

  async deleteGroup(wallet: string, groupId: string): Promise<{ readonly unassigned: number } | null> {
    return this.knex.transaction(async (trx) => {
      await this.takeSqliteWriteLock(trx);
      if (!(await this.lockGroup(trx, wallet, groupId))) return null;
      await this.lockable(trx('devices').select('device_id').where({ wallet, group_id: groupId }).orderBy('device_id'));
      const unassigned = await trx('devices').where({ wallet, group_id: groupId }).update({ group_id: null });
      await trx('device_groups').where({ wallet, group_id: groupId }).del();
      return { unassigned };
    });
  }

  private async getIn(db: Db, wallet: string, groupId: string): Promise<GroupView | null> {
    const row: GroupRow | undefined = await db<GroupRow>('device_groups').where({ wallet, group_id: groupId }).first();
    if (!row) return null;
    const ids: Array<{ device_id: string }> = await db('devices').select('device_id').where({ wallet, group_id: groupId }).orderBy('device_id');
    return { ...toGroup(row), deviceCount: ids.length, deviceIds: ids.map((r) => r.device_id) };
  }

  private async countIn(db: Db, wallet: string): Promise<number> {
    const row = (await db('device_groups').where('wallet', wallet).count('* as n').first()) as { n: number | string } | undefined;
    return row ? int(row.n, 'count') : 0;
  }

  /**
   * These transactions read, then write. On SQLite a transaction that has read cannot start
   * writing once another connection (the proof writer thread, a CLI) has committed since: it
   * fails with SQLITE_BUSY at once, without waiting. A write first — one that changes nothing —
   * takes the write lock up front, waiting for it like any other write (busy_timeout).
   */
  private async takeSqliteWriteLock(trx: Knex.Transaction): Promise<void> {
    if (!this.postgres) await trx.raw('update device_groups set name = name where 0');
  }

  private async lockGroup(trx: Knex.Transaction, wallet: string, groupId: string): Promise<boolean> {
    return (await this.lockable(trx('device_groups').select('group_id').where({ wallet, group_id: groupId })).first()) !== undefined;
  }

  /**
   * FOR NO KEY UPDATE on PostgreSQL: it serializes writers of the same rows but, unlike FOR
   * UPDATE, lets foreign-key checks (KEY SHARE) of other transactions through, so a health
   * report or device insert never waits on a group change. SQLite has no row locks (and needs
   * none: one writer).
   */
  private lockable<Q extends Knex.QueryBuilder>(query: Q): Q {
    return this.postgres ? (query.forNoKeyUpdate() as Q) : query;
  }
}
