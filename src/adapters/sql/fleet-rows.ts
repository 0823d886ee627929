import { UNORDERED, type Device } from '../../domain/fleet/device.js';
import type { Group } from '../../domain/fleet/group.js';
import { HEALTH_LEVELS, type CustomMetricValue, type HealthLevel, type HealthReport } from '../../domain/fleet/health-report.js';

/** Rows of migrations/003_fleet.ts as the drivers return them (pg: bigint as a string). */
export interface DeviceRow {
  readonly wallet: string;
  readonly device_id: string;
  readonly name: string | null;
  readonly group_id: string | null;
  readonly first_seen_ms: number | string;
  readonly last_seen_ms: number | string;
  readonly last_proof_at_ms: number | string | null;
  readonly proof_count: number | string;
  readonly last_health: string | null;
  readonly last_health_status: string | null;
  readonly last_health_at_ms: number | string | null;
  readonly hidden_at_ms: number | string | null;
  readonly sort_order: number | string;
  readonly description: string | null;
  readonly device_type: string | null;
}

export const DEVICE_COLUMNS = [
  'wallet',
  'device_id',
  'name',
  'group_id',
  'first_seen_ms',
  'last_seen_ms',
  'last_proof_at_ms',
  'proof_count',
  'last_health',
  'last_health_status',
  'last_health_at_ms',
  'hidden_at_ms',
  'sort_order',
  'description',
  'device_type',
] as const satisfies ReadonlyArray<keyof DeviceRow>;

export interface GroupRow {
  readonly wallet: string;
  readonly group_id: string;
  readonly name: string;
  readonly description: string | null;
  readonly created_at_ms: number | string;
  readonly color?: string | null;
}

export interface HealthRow {
  readonly wallet: string;
  readonly device_id: string;
  readonly received_at_ms: number | string;
  readonly status: string;
  readonly cpu_percent: number | null;
  readonly memory_percent: number | null;
  readonly battery_percent: number | null;
  readonly temperature_c: number | null;
  readonly uptime_s: number | null;
  readonly message: string | null;
  readonly metrics: string | null;
  // migrations/007: absent from a device's last_health written before it.
  readonly cpu_temperature?: number | null;
  readonly memory_used_mb?: number | null;
  readonly memory_total_mb?: number | null;
  /** sqlite3 returns booleans as 0 or 1. */
  readonly battery_charging?: boolean | number | null;
  readonly disk_percent?: number | null;
  readonly network_connected?: boolean | number | null;
  readonly network_type?: string | null;
  readonly custom_metrics?: string | null;
  readonly status_derived?: boolean | number;
}

export const HEALTH_COLUMNS = [
  'wallet',
  'device_id',
  'received_at_ms',
  'status',
  'cpu_percent',
  'memory_percent',
  'battery_percent',
  'temperature_c',
  'uptime_s',
  'message',
  'metrics',
  'cpu_temperature',
  'memory_used_mb',
  'memory_total_mb',
  'battery_charging',
  'disk_percent',
  'network_connected',
  'network_type',
  'custom_metrics',
  'status_derived',
] as const satisfies ReadonlyArray<keyof HealthRow>;

export function toDevice(row: DeviceRow): Device {
  return {
    wallet: row.wallet,
    deviceId: row.device_id,
    name: row.name,
    groupId: row.group_id,
    firstSeenMs: int(row.first_seen_ms, 'first_seen_ms'),
    lastSeenMs: int(row.last_seen_ms, 'last_seen_ms'),
    lastProofAtMs: row.last_proof_at_ms === null ? null : int(row.last_proof_at_ms, 'last_proof_at_ms'),
    proofCount: int(row.proof_count, 'proof_count'),
    lastHealth: row.last_health === null ? null : toReport(JSON.parse(row.last_health) as HealthRow),
    hiddenAtMs: row.hidden_at_ms === null ? null : int(row.hidden_at_ms, 'hidden_at_ms'),
    sortOrder: int(row.sort_order, 'sort_order') === UNORDERED ? null : int(row.sort_order, 'sort_order'),
    description: row.description,
    deviceType: row.device_type,
  };
}

export function toGroup(row: GroupRow): Group {
  return {
    wallet: row.wallet,
    groupId: row.group_id,
    name: row.name,
    description: row.description,
    createdAtMs: int(row.created_at_ms, 'created_at_ms'),
    color: row.color ?? null,
  };
}

export function toHealthRow(wallet: string, deviceId: string, r: HealthReport): HealthRow {
  return {
    wallet,
    device_id: deviceId,
    received_at_ms: r.receivedAtMs,
    status: r.status,
    cpu_percent: r.cpuPercent,
    memory_percent: r.memoryPercent,
    battery_percent: r.batteryPercent,
    temperature_c: r.temperatureC,
    uptime_s: r.uptimeS,
    message: r.message,
    metrics: r.metrics === null ? null : JSON.stringify(r.metrics),
    cpu_temperature: r.cpuTemperatureC,
    memory_used_mb: r.memoryUsedMb,
    memory_total_mb: r.memoryTotalMb,
    battery_charging: r.batteryCharging,
    disk_percent: r.diskPercent,
    network_connected: r.networkConnected,
    network_type: r.networkType,
    custom_metrics: r.customMetrics === null ? null : JSON.stringify(r.customMetrics),
    status_derived: r.statusDerived,
  };
}

const flag = (v: boolean | number | null | undefined): boolean | null => (v === null || v === undefined ? null : Boolean(v));

export function toReport(row: HealthRow): HealthReport {
  if (!(HEALTH_LEVELS as readonly string[]).includes(row.status)) throw new Error(`device_health.status holds ${row.status}`);
  return {
    status: row.status as HealthLevel,
    cpuPercent: row.cpu_percent,
    memoryPercent: row.memory_percent,
    batteryPercent: row.battery_percent,
    temperatureC: row.temperature_c,
    uptimeS: row.uptime_s,
    message: row.message,
    metrics: row.metrics === null ? null : (JSON.parse(row.metrics) as Record<string, number>),
    cpuTemperatureC: row.cpu_temperature ?? null,
    memoryUsedMb: row.memory_used_mb ?? null,
    memoryTotalMb: row.memory_total_mb ?? null,
    batteryCharging: flag(row.battery_charging),
    diskPercent: row.disk_percent ?? null,
    networkConnected: flag(row.network_connected),
    networkType: row.network_type ?? null,
    customMetrics:
      row.custom_metrics === null || row.custom_metrics === undefined ? null : (JSON.parse(row.custom_metrics) as Record<string, CustomMetricValue>),
    receivedAtMs: int(row.received_at_ms, 'received_at_ms'),
    statusDerived: flag(row.status_derived) ?? false,
  };
}

export function int(value: number | string, column: string): number {
  const n = typeof value === 'number' ? value : Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`${column} holds ${String(value)}, not a safe integer`);
  return n;
}
