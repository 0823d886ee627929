import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import type { DeviceView } from '../../../application/fleet/device-view.js';
import type { FleetOverview } from '../../../application/fleet/get-fleet-overview.js';
import type { WalletStats } from '../../../application/fleet/get-wallet-stats.js';
import type { GroupView } from '../../../application/ports/group-store.js';
import { displayName } from '../../../domain/fleet/device.js';
import type { StatusCounts } from '../../../domain/fleet/device-status.js';
import type { Group } from '../../../domain/fleet/group.js';
import type { HealthReport } from '../../../domain/fleet/health-report.js';

/** JSON bodies of the fleet and stats routes (shapes: codecs/fleet.codecs.ts). */

const iso = toRfc3339;
const isoOrNull = (ms: number | null) => (ms === null ? null : iso(ms));

export function healthBody(r: HealthReport) {
  return {
    status: r.status,
    cpu_percent: r.cpuPercent,
    memory_percent: r.memoryPercent,
    battery_percent: r.batteryPercent,
    temperature_c: r.temperatureC,
    uptime_s: r.uptimeS,
    message: r.message,
    metrics: r.metrics,
    received_at: iso(r.receivedAtMs),
    // The ACTO SDK's further readings: present when the device sent them, so a report of
    // the original shape reads back in that shape.
    ...present({
      cpu_temperature: r.cpuTemperatureC,
      memory_used_mb: r.memoryUsedMb,
      memory_total_mb: r.memoryTotalMb,
      battery_charging: r.batteryCharging,
      disk_percent: r.diskPercent,
      network_connected: r.networkConnected,
      network_type: r.networkType,
      custom_metrics: r.customMetrics,
    }),
    ...(r.statusDerived ? { status_derived: true as const } : {}),
  };
}

/** The members whose value is not null. */
function present<T extends Record<string, unknown>>(members: T): Partial<{ [K in keyof T]: NonNullable<T[K]> }> {
  return Object.fromEntries(Object.entries(members).filter(([, v]) => v !== null)) as Partial<{ [K in keyof T]: NonNullable<T[K]> }>;
}

export function deviceBody({ device: d, status }: DeviceView) {
  return {
    device_id: d.deviceId,
    // The id stands for the name until the owner sets one.
    name: displayName(d),
    custom_name: d.name !== null,
    group_id: d.groupId,
    status,
    first_seen_at: iso(d.firstSeenMs),
    last_seen_at: iso(d.lastSeenMs),
    last_proof_at: isoOrNull(d.lastProofAtMs),
    proof_count: d.proofCount,
    last_health: d.lastHealth ? healthBody(d.lastHealth) : null,
    description: d.description,
    type: d.deviceType,
    // null: never placed (listed after the placed devices, by id).
    sort_order: d.sortOrder,
    hidden: d.hiddenAtMs !== null,
  };
}

/** Same shape as the proof list's items. */
export { summaryBody as proofSummaryBody } from './proof-routes.js';

export function groupSummaryBody(g: Group & { deviceCount: number }) {
  return { group_id: g.groupId, name: g.name, description: g.description, color: g.color, device_count: g.deviceCount, created_at: iso(g.createdAtMs) };
}

export const groupBody = (g: GroupView) => ({ ...groupSummaryBody(g), device_ids: g.deviceIds ?? [] });

const statusBody = (c: StatusCounts) => ({ online: c.online, warning: c.warning, offline: c.offline, degraded: c.degraded, error: c.error });

export function overviewBody(o: FleetOverview) {
  const names = new Map(o.groups.map((g) => [g.groupId, g.name]));
  return {
    devices: o.devices.map(deviceBody),
    next_cursor: o.nextCursor,
    groups: o.groups.map(groupSummaryBody),
    summary: {
      total_devices: o.summary.totalDevices,
      by_status: statusBody(o.summary.byStatus),
      by_group: o.summary.byGroup.map((g) => ({
        group_id: g.groupId,
        name: g.groupId === null ? null : (names.get(g.groupId) ?? null),
        device_count: g.deviceCount,
        by_status: statusBody(g.byStatus),
      })),
      group_count: o.summary.groupCount,
    },
    generated_at: iso(o.generatedAtMs),
    windows: { online_window_s: o.windows.onlineWindowMs / 1000, offline_after_s: o.windows.offlineAfterMs / 1000 },
  };
}

export function statsBody(s: WalletStats) {
  return {
    wallet: s.wallet,
    generated_at: iso(s.generatedAtMs),
    proofs: {
      total: s.proofs.total,
      last_24h: s.proofs.last24h,
      last_7d: s.proofs.last7d,
      first_at: isoOrNull(s.proofs.firstAtMs),
      last_at: isoOrNull(s.proofs.lastAtMs),
      basis: 'created_at of each proof (payload.created_at)',
    },
    devices: { total: s.devices.total, by_status: statusBody(s.devices.byStatus) },
    groups: { total: s.groupCount },
    score: {
      average: s.score.average,
      min: s.score.min,
      max: s.score.max,
      sample_size: s.score.sampleSize,
      sample_limit: s.score.sampleLimit,
      basis: `the wallet's ${s.score.sampleLimit} most recent proofs by created_at, each scored once as it was received`,
      policy: s.score.policy,
      average_all: s.score.averageAll,
      scored_proofs: s.score.scoredProofs,
    },
    api_keys: { requests: s.apiKeys.requests, errors: s.apiKeys.errors, error_rate: s.apiKeys.errorRate },
    proofs_submitted: s.proofsSubmitted,
    verifications: {
      total: s.verifications.total,
      successful: s.verifications.successful,
      failed: s.verifications.failed,
      success_rate: s.verifications.successRate,
    },
    activity: {
      first_at: isoOrNull(s.activity.firstMs),
      last_at: isoOrNull(s.activity.lastMs),
      basis: 'registry time of each proof accepted and each verification call answered',
    },
    proofs_by_robot: s.topRobots.map((r) => ({ robot_id: r.name, proofs: r.count })),
    proofs_by_task: s.topTasks.map((r) => ({ task_id: r.name, proofs: r.count })),
    timeline: {
      days: s.timeline.length,
      basis: 'UTC days of the registry time each proof was accepted and each verification call answered',
      points: s.timeline.map((d) => ({ date: iso(d.dayMs).slice(0, 10), proofs: d.proofs, verifications: d.verifications })),
    },
  };
}
