import type { Knex } from 'knex';
import type { AnnouncedDevice, DeviceAnnouncements } from '../../application/ports/device-announcements.js';
import type { NewEvent } from '../../domain/events/event.js';
import type { ActivityCutoffs, DeviceStatus, HealthMark } from '../../domain/fleet/device-status.js';
import type { Database } from './database.js';
import { insertEvents, lockEvents } from './event-rows.js';

interface Row {
  readonly wallet: string;
  readonly device_id: string;
  readonly announced_status: DeviceStatus | null;
  readonly last_seen_ms: number | string;
  readonly last_health_status: HealthMark | null;
}

/** DeviceAnnouncements on SQLite or PostgreSQL: `devices.announced_status` (migration 016). */
export class KnexDeviceAnnouncements implements DeviceAnnouncements {
  private readonly knex: Knex;

  constructor(db: Pick<Database, 'knex'>) {
    this.knex = db.knex;
  }

  async stale(cutoffs: ActivityCutoffs, limit: number, after?: { wallet: string; deviceId: string }): Promise<readonly AnnouncedDevice[]> {
    const q = this.knex<Row>('devices')
      .select('wallet', 'device_id', 'announced_status', 'last_seen_ms', 'last_health_status')
      .where((w) =>
        w
          .whereNull('announced_status')
          .orWhere((o) => o.where('announced_status', 'online').andWhere('last_seen_ms', '<', cutoffs.recentSinceMs))
          .orWhere((o) => o.whereNot('announced_status', 'offline').andWhere('last_seen_ms', '<', cutoffs.silentBeforeMs)),
      );
    if (after)
      q.andWhere((w) => w.where('wallet', '>', after.wallet).orWhere((o) => o.where('wallet', after.wallet).andWhere('device_id', '>', after.deviceId)));
    const rows = await q.orderBy([{ column: 'wallet' }, { column: 'device_id' }]).limit(limit);
    return rows.map((r) => ({
      wallet: r.wallet,
      deviceId: r.device_id,
      announced: r.announced_status,
      lastSeenMs: Number(r.last_seen_ms),
      health: r.last_health_status ?? 'none',
    }));
  }

  async announce(device: AnnouncedDevice, to: DeviceStatus, event: NewEvent | null): Promise<boolean> {
    return this.knex.transaction(async (trx) => {
      await lockEvents(trx);
      const q = trx('devices').where({ wallet: device.wallet, device_id: device.deviceId, last_seen_ms: device.lastSeenMs });
      if (device.announced === null) q.whereNull('announced_status');
      else q.where('announced_status', device.announced);
      if ((await q.update({ announced_status: to })) === 0) return false;
      if (event) await insertEvents(trx, [event]);
      return true;
    });
  }
}
