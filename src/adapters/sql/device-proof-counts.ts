import { isDeviceId } from '../../domain/fleet/device.js';
import { byteOrder } from '../random-ids.js';

/** The parts of a newly inserted proof row that move its device's figures. */
export interface InsertedProof {
  readonly wallet: string;
  readonly robot_id: string | null;
  readonly received_at_ms: number | string;
}

/** One device's share of a set of inserted proofs. */
export interface DeviceCount {
  readonly wallet: string;
  readonly deviceId: string;
  readonly count: number;
  readonly first: number;
  readonly last: number;
}

/**
 * Each device's share of `proofs`, in (wallet, device_id) byte order, the order of the
 * primary key: concurrent PostgreSQL transactions then lock devices in the same order and
 * cannot deadlock on each other (the group changes lock them in that order too).
 */
export function deviceCounts(proofs: readonly InsertedProof[]): DeviceCount[] {
  const byDevice = new Map<string, { wallet: string; deviceId: string; count: number; first: number; last: number }>();
  for (const p of proofs) {
    if (p.robot_id === null || !isDeviceId(p.robot_id)) continue;
    const at = Number(p.received_at_ms);
    const key = `${p.wallet}\u0000${p.robot_id}`;
    const d = byDevice.get(key);
    if (d) {
      d.count++;
      d.first = Math.min(d.first, at);
      d.last = Math.max(d.last, at);
    } else byDevice.set(key, { wallet: p.wallet, deviceId: p.robot_id, count: 1, first: at, last: at });
  }
  return [...byDevice.values()].sort((a, b) => byteOrder(a.wallet, b.wallet) || byteOrder(a.deviceId, b.deviceId));
}

/** The upsert of `rows` devices' counts; `least`/`greatest` are the dialect's two-argument min/max. */
export function deviceUpsertSql(rows: number, least: string, greatest: string): string {
  return `insert into devices (${DEVICE_UPSERT_COLUMNS})
       values ${Array.from({ length: rows }, () => "(?, ?, ?, ?, ?, ?, 'online')").join(', ')}
       ${deviceUpsertConflict(least, greatest)}`;
}

/**
 * The columns `deviceUpsertSql` (and the SQLite writer's trigger) insert, in order; the last,
 * announced_status, is 'online' for a device a proof creates.
 */
export const DEVICE_UPSERT_COLUMNS = 'wallet, device_id, first_seen_ms, last_seen_ms, last_proof_at_ms, proof_count, announced_status';

/**
 * A device's status right after a proof or report (`statusAfterContact`): only a last health
 * report of error or degraded makes it other than online. `health` is the SQL of the
 * device's last_health_status (null when it never reported).
 */
export const statusAfterContactSql = (health: string): string => `case ${health} when 'error' then 'error' when 'degraded' then 'degraded' else 'online' end`;

/**
 * How a device's new share of proofs (`excluded`) adds to its stored figures; a hidden device
 * is shown again, and its announced status becomes its status after a proof (the writers
 * announce the change in the same statement or transaction, before this upsert).
 */
export function deviceUpsertConflict(least: string, greatest: string): string {
  return `on conflict (wallet, device_id) do update set
         proof_count = devices.proof_count + excluded.proof_count,
         hidden_at_ms = null,
         announced_status = ${statusAfterContactSql('devices.last_health_status')},
         first_seen_ms = ${least}(devices.first_seen_ms, excluded.first_seen_ms),
         last_seen_ms = ${greatest}(devices.last_seen_ms, excluded.last_seen_ms),
         last_proof_at_ms = ${greatest}(coalesce(devices.last_proof_at_ms, excluded.last_proof_at_ms), excluded.last_proof_at_ms)`;
}

/** Bind values of `deviceUpsertSql` for these devices, in its column order. */
export const deviceUpsertValues = (devices: readonly DeviceCount[]): Array<string | number> =>
  devices.flatMap((d) => [d.wallet, d.deviceId, d.first, d.last, d.last, d.count]);
