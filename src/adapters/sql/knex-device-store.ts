import type { Knex } from 'knex';
import type { DeviceBucket, DeviceChanges, DevicePage, DeviceQuery, DeviceStore } from '../../application/ports/device-store.js';
import { UNORDERED, type Device } from '../../domain/fleet/device.js';
import { statusChanged } from '../../domain/events/announcements.js';
import { statusAfterContact, type Activity, type ActivityCutoffs, type DeviceStatus, type HealthMark } from '../../domain/fleet/device-status.js';
import type { HealthReport } from '../../domain/fleet/health-report.js';
import type { Database } from './database.js';
import { statusAfterContactSql } from './device-proof-counts.js';
import { insertEvents, lockEvents } from './event-rows.js';
import { DEVICE_COLUMNS, HEALTH_COLUMNS, int, toDevice, toHealthRow, toReport, type DeviceRow, type HealthRow } from './fleet-rows.js';

/**
 * DeviceStore on SQLite or PostgreSQL. Devices are also written by the proof writers
 * (device-proof-counts.ts) in the proofs' own statements; their groups by knex-group-store.ts.
 * A health report that changes its device's status announces it in the report's transaction.
 */
export class KnexDeviceStore implements DeviceStore {
  private readonly knex: Knex;
  private readonly postgres: boolean;

  constructor(db: Pick<Database, 'knex' | 'dialect'>) {
    this.knex = db.knex;
    this.postgres = db.dialect === 'postgres';
  }

  async listDevices(wallet: string, q: DeviceQuery): Promise<DevicePage> {
    const query = this.knex<DeviceRow>('devices')
      .select([...DEVICE_COLUMNS])
      .where('wallet', wallet)
      .whereNull('hidden_at_ms');
    if (q.groupId === null) query.whereNull('group_id');
    else if (q.groupId !== undefined) query.where('group_id', q.groupId);
    // A row-value comparison: one index range condition on (wallet, sort_order, device_id).
    if (q.afterDeviceId !== undefined) query.whereRaw('(sort_order, device_id) > (?, ?)', [q.afterSortOrder ?? UNORDERED, q.afterDeviceId]);
    if (q.states) {
      const { cutoffs, pairs } = q.states;
      if (pairs.length === 0) query.whereRaw('1 = 0');
      else query.where((any) => pairs.forEach((p) => any.orWhere((both) => (activityIs(both, p.activity, cutoffs), healthIs(both, p.health)))));
    }
    // devices_wallet_order (wallet, sort_order, device_id) serves the order and the cursor.
    const rows = await query
      .orderBy('sort_order', 'asc')
      .orderBy('device_id', 'asc')
      .limit(q.limit + 1);
    const items = rows.slice(0, q.limit).map(toDevice);
    return { items, next: rows.length > q.limit ? items[items.length - 1]!.deviceId : null };
  }

  async getDevice(wallet: string, deviceId: string): Promise<Device | null> {
    const row = await this.knex<DeviceRow>('devices')
      .select([...DEVICE_COLUMNS])
      .where({ wallet, device_id: deviceId })
      .first();
    return row ? toDevice(row) : null;
  }

  async renameDevice(wallet: string, deviceId: string, name: string): Promise<Device | null> {
    const rows: DeviceRow[] = await this.knex('devices')
      .where({ wallet, device_id: deviceId })
      .update({ name }, [...DEVICE_COLUMNS]);
    return rows[0] ? toDevice(rows[0]) : null;
  }

  async editDevice(wallet: string, deviceId: string, changes: DeviceChanges): Promise<Device | null> {
    const set = {
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.deviceType !== undefined ? { device_type: changes.deviceType } : {}),
    };
    if (Object.keys(set).length === 0) return this.getDevice(wallet, deviceId);
    const rows: DeviceRow[] = await this.knex('devices')
      .where({ wallet, device_id: deviceId })
      .update(set, [...DEVICE_COLUMNS]);
    return rows[0] ? toDevice(rows[0]) : null;
  }

  async hideDevice(wallet: string, deviceId: string, atMs: number): Promise<Device | null> {
    const rows: DeviceRow[] = await this.knex('devices')
      .where({ wallet, device_id: deviceId })
      .update({ hidden_at_ms: this.knex.raw('coalesce(hidden_at_ms, ?)', [atMs]), group_id: null }, [...DEVICE_COLUMNS]);
    return rows[0] ? toDevice(rows[0]) : null;
  }

  async orderDevices(wallet: string, orders: readonly { deviceId: string; sortOrder: number }[]): Promise<{ unknown: readonly string[]; updated: number }> {
    if (orders.length === 0) return { unknown: [], updated: 0 };
    const ids = orders.map((o) => o.deviceId);
    return this.knex.transaction(async (trx) => {
      // Locked in key order, the order the proof writers lock devices in (no deadlock).
      const known = trx('devices').select('device_id').where('wallet', wallet).whereIn('device_id', ids).orderBy('device_id');
      const found = new Set(((await (this.postgres ? known.forNoKeyUpdate() : known)) as Array<{ device_id: string }>).map((r) => r.device_id));
      const unknown = ids.filter((id) => !found.has(id));
      if (unknown.length > 0) return { unknown, updated: 0 };
      const cases = orders.map(() => 'when ? then cast(? as integer)').join(' ');
      const updated = await trx('devices')
        .where('wallet', wallet)
        .whereIn('device_id', ids)
        .update({
          sort_order: trx.raw(
            `case device_id ${cases} end`,
            orders.flatMap((o) => [o.deviceId, o.sortOrder]),
          ),
        });
      return { unknown: [], updated };
    });
  }

  async recordHealth(wallet: string, deviceId: string, report: HealthReport, keep: number): Promise<Device> {
    const [greatest, least] = this.postgres ? ['greatest', 'least'] : ['max', 'min'];
    const at = report.receivedAtMs;
    const row = toHealthRow(wallet, deviceId, report);
    // A report that arrives after a later one (two requests racing) joins the history but
    // does not replace the device's last health.
    const newer = '(devices.last_health_at_ms is null or devices.last_health_at_ms <= excluded.last_health_at_ms)';
    const lastStatus = `case when ${newer} then excluded.last_health_status else devices.last_health_status end`;
    return this.knex.transaction(async (trx) => {
      // Held to the commit: the status announced before this report is the one this report changes.
      await lockEvents(trx);
      const before: { announced_status: DeviceStatus | null } | undefined = await trx('devices')
        .select('announced_status')
        .where({ wallet, device_id: deviceId })
        .first();
      // One statement for the device, so its row is written once per transaction: a second
      // UPDATE of a row this transaction already wrote makes PostgreSQL re-check the group
      // foreign key (KEY SHARE on the group), which can deadlock with a group change.
      await trx.raw(
        `insert into devices (wallet, device_id, first_seen_ms, last_seen_ms, proof_count, last_health, last_health_status, last_health_at_ms, announced_status)
         values (?, ?, ?, ?, 0, ?, ?, ?, ?)
         on conflict (wallet, device_id) do update set
           first_seen_ms = ${least}(devices.first_seen_ms, excluded.first_seen_ms),
           last_seen_ms = ${greatest}(devices.last_seen_ms, excluded.last_seen_ms),
           hidden_at_ms = null,
           last_health = case when ${newer} then excluded.last_health else devices.last_health end,
           last_health_status = case when ${newer} then excluded.last_health_status else devices.last_health_status end,
           last_health_at_ms = case when ${newer} then excluded.last_health_at_ms else devices.last_health_at_ms end,
           announced_status = ${statusAfterContactSql(lastStatus)}`,
        [wallet, deviceId, at, at, JSON.stringify(row), report.status, at, statusAfterContact(report.status)],
      );
      await trx('device_health').insert(row);
      // Retention: everything older than the device's `keep` newest reports goes.
      const oldestKept = trx('device_health')
        .select('id')
        .where({ wallet, device_id: deviceId })
        .orderBy('id', 'desc')
        .offset(keep - 1)
        .limit(1);
      await trx('device_health').where({ wallet, device_id: deviceId }).andWhere('id', '<', oldestKept).del();
      const device: DeviceRow | undefined = await trx<DeviceRow>('devices')
        .select([...DEVICE_COLUMNS])
        .where({ wallet, device_id: deviceId })
        .first();
      if (!device) throw new Error('device vanished inside its own transaction');
      const recorded = toDevice(device);
      const from = before?.announced_status ?? null;
      const to = statusAfterContact(recorded.lastHealth?.status ?? 'none');
      if (from !== to) await insertEvents(trx, [statusChanged({ wallet, deviceId, from, to, why: 'health_report', lastSeenMs: recorded.lastSeenMs }, at)]);
      return recorded;
    });
  }

  async healthHistory(wallet: string, deviceId: string, limit: number): Promise<readonly HealthReport[]> {
    const rows: HealthRow[] = await this.knex('device_health')
      .select([...HEALTH_COLUMNS])
      .where({ wallet, device_id: deviceId })
      .orderBy('id', 'desc')
      .limit(limit);
    return rows.map(toReport);
  }

  async deviceBuckets(wallet: string | null, cutoffs: ActivityCutoffs): Promise<readonly DeviceBucket[]> {
    const query = this.knex('devices')
      .select(
        'group_id',
        this.knex.raw(`case when last_seen_ms >= ? then 'recent' when last_seen_ms >= ? then 'idle' else 'silent' end as activity`, [
          cutoffs.recentSinceMs,
          cutoffs.silentBeforeMs,
        ]),
        this.knex.raw(`coalesce(last_health_status, 'none') as health`),
      )
      .whereNull('hidden_at_ms')
      .count('* as n')
      .groupByRaw('1, 2, 3');
    if (wallet !== null) query.where('wallet', wallet);
    const rows = (await query) as unknown as Array<{ group_id: string | null; activity: Activity; health: HealthMark; n: number | string }>;
    return rows.map((r) => ({ groupId: r.group_id, activity: r.activity, health: r.health, count: int(r.n, 'count') }));
  }
}

/** The same boundaries as activityOf in the domain, as conditions on last_seen_ms. */
function activityIs(b: Knex.QueryBuilder, activity: Activity, c: ActivityCutoffs): void {
  if (activity === 'recent') b.where('last_seen_ms', '>=', c.recentSinceMs);
  else if (activity === 'idle') b.where('last_seen_ms', '<', c.recentSinceMs).andWhere('last_seen_ms', '>=', c.silentBeforeMs);
  else b.where('last_seen_ms', '<', c.silentBeforeMs);
}

function healthIs(b: Knex.QueryBuilder, health: HealthMark): void {
  if (health === 'none') b.whereNull('last_health_status');
  else b.where('last_health_status', health);
}
