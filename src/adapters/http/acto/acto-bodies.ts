import type { DeviceView } from '../../../application/fleet/device-view.js';
import type { GroupView } from '../../../application/ports/group-store.js';
import type { VerificationReport } from '../../../application/proofs/verify-proof.js';
import { displayName } from '../../../domain/fleet/device.js';
import type { HealthReport } from '../../../domain/fleet/health-report.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';

/**
 * The registry's answers in the shapes the ACTO SDK reads (acto.codecs.ts). Pure renaming:
 * every figure comes from a use case; nothing here decides anything the /v1 routes do not.
 */

const iso = toRfc3339;

/** ACTO's verify reason is a string also when valid. */
export const reasonOf = (r: VerificationReport): string => r.reason ?? 'ok';

/**
 * A health report as ACTO's DeviceHealth: every metric it names, null where not reported
 * (every one null, custom_metrics empty, when the device never reported). The native
 * report's status and numeric metrics come along under their own names.
 */
export function deviceHealth(r: HealthReport | null) {
  return {
    cpu_percent: r?.cpuPercent ?? null,
    cpu_temperature: r?.cpuTemperatureC ?? null,
    memory_percent: r?.memoryPercent ?? null,
    memory_used_mb: r?.memoryUsedMb ?? null,
    memory_total_mb: r?.memoryTotalMb ?? null,
    battery_percent: r?.batteryPercent ?? null,
    battery_charging: r?.batteryCharging ?? null,
    disk_percent: r?.diskPercent ?? null,
    network_connected: r?.networkConnected ?? null,
    network_type: r?.networkType ?? null,
    uptime_seconds: r?.uptimeS ?? null,
    temperature: r?.temperatureC ?? null,
    custom_metrics: r?.customMetrics ?? {},
    last_updated: r ? iso(r.receivedAtMs) : null,
    status: r?.status ?? null,
    metrics: r?.metrics ?? null,
  };
}

/** ACTO's DeviceInfo. `custom_name` is the owner's name or null; `name` and `display_name` what is shown. */
export function deviceInfo({ device: d, status }: DeviceView, groupNames: ReadonlyMap<string, string>) {
  return {
    id: d.deviceId,
    name: displayName(d),
    custom_name: d.name,
    display_name: displayName(d),
    group_id: d.groupId,
    group_name: d.groupId === null ? null : (groupNames.get(d.groupId) ?? null),
    proof_count: d.proofCount,
    last_activity: iso(d.lastSeenMs),
    first_activity: iso(d.firstSeenMs),
    status,
    health: d.lastHealth ? deviceHealth(d.lastHealth) : null,
    description: d.description,
    type: d.deviceType,
    sort_order: d.sortOrder,
  };
}

export function group(g: GroupView) {
  return {
    id: g.groupId,
    name: g.name,
    description: g.description,
    device_count: g.deviceCount,
    device_ids: g.deviceIds ?? [],
    created_at: iso(g.createdAtMs),
  };
}
