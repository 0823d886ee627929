import { hasCharacters } from '../text/characters.js';
import * as E from 'fp-ts/lib/Either.js';

export const HEALTH_LEVELS = ['ok', 'degraded', 'error'] as const;
export type HealthLevel = (typeof HEALTH_LEVELS)[number];

/** Bounds of the readings a device may report (docs/fleet-and-scoring.md: percentages 0–100). */
export const HEALTH_LIMITS = {
  percent: { min: 0, max: 100 },
  // Below absolute zero or above what any electronics survives is a broken sensor or a bug.
  temperatureC: { min: -273.15, max: 1000 },
  // A century of uptime is already absurd; the bound only keeps the number sane.
  uptimeS: { min: 0, max: 100 * 365 * 86_400 },
  // A petabyte of memory, in MB: beyond any device; the bound only keeps the number sane.
  memoryMb: { min: 0, max: 1_000_000_000 },
  messageMax: 1000,
  metricsMaxKeys: 50,
  metricKeyMax: 64,
  networkTypeMax: 64,
  /** Longest string value of a custom metric, in characters. */
  customTextMax: 256,
} as const;

/** A custom metric's value: what the ACTO SDK's `custom_metrics` may hold. */
export type CustomMetricValue = string | number | boolean;

/** What a device says about itself; every reading is optional. */
export interface HealthReadings {
  readonly status: HealthLevel;
  readonly cpuPercent: number | null;
  readonly memoryPercent: number | null;
  readonly batteryPercent: number | null;
  /** The device's temperature, °C (`temperature_c`, also accepted as `temperature`). */
  readonly temperatureC: number | null;
  /** Seconds since boot (`uptime_s`, also accepted as `uptime_seconds`). */
  readonly uptimeS: number | null;
  readonly message: string | null;
  /** Free-form numeric readings by name (at most 50). */
  readonly metrics: Readonly<Record<string, number>> | null;
  /** The CPU's own temperature, °C. */
  readonly cpuTemperatureC: number | null;
  readonly memoryUsedMb: number | null;
  readonly memoryTotalMb: number | null;
  readonly batteryCharging: boolean | null;
  readonly diskPercent: number | null;
  readonly networkConnected: boolean | null;
  /** e.g. wifi, ethernet, cellular: the device's word, 1 to 64 characters. */
  readonly networkType: string | null;
  /** Free-form readings of text, numbers or booleans by name (at most 50), kept as sent. */
  readonly customMetrics: Readonly<Record<string, CustomMetricValue>> | null;
}

/** A report as kept: the readings and when the registry received them (its own clock). */
export interface HealthReport extends HealthReadings {
  readonly receivedAtMs: number;
  /** True when the device sent no status and the registry derived it (deriveHealthLevel). */
  readonly statusDerived: boolean;
}

/** Readings with every member unmeasured, the status aside. */
export const NO_READINGS: Omit<HealthReadings, 'status'> = {
  cpuPercent: null,
  memoryPercent: null,
  batteryPercent: null,
  temperatureC: null,
  uptimeS: null,
  message: null,
  metrics: null,
  cpuTemperatureC: null,
  memoryUsedMb: null,
  memoryTotalMb: null,
  batteryCharging: null,
  diskPercent: null,
  networkConnected: null,
  networkType: null,
  customMetrics: null,
};

export interface InvalidHealthReport {
  readonly _tag: 'InvalidHealthReport';
  /** The member at fault, as the client named it (e.g. `cpu_percent`, `metrics.fan_rpm`). */
  readonly field: string;
  readonly detail: string;
}

const invalid = (field: string, detail: string): E.Either<InvalidHealthReport, never> =>
  E.left({ _tag: 'InvalidHealthReport', field, detail: `${field} ${detail}` });

/**
 * The thresholds of the derived status (docs/fleet-and-scoring.md). A device that sends no
 * status is judged on what it sent: any error threshold crossed → error; else any degraded
 * threshold crossed → degraded; else ok. A reading it did not send crosses nothing.
 */
export const DERIVED_STATUS_RULES = {
  error: { percentAtLeast: 98, temperatureAtLeastC: 90, batteryAtMost: 5 },
  degraded: { percentAtLeast: 90, temperatureAtLeastC: 80, batteryAtMost: 15 },
} as const;

/**
 * The status of readings sent without one. Percentages are memory and disk (and CPU load for
 * degraded only: a busy CPU is not a failure); temperatures are the CPU's and the device's;
 * the battery counts only while not charging; a device that says it has no network is
 * degraded. Memory in use is taken from memory_used_mb / memory_total_mb when no
 * memory_percent is sent.
 */
export function deriveHealthLevel(r: Omit<HealthReadings, 'status'>): HealthLevel {
  const memory =
    r.memoryPercent ?? (r.memoryUsedMb !== null && r.memoryTotalMb !== null && r.memoryTotalMb > 0 ? (100 * r.memoryUsedMb) / r.memoryTotalMb : null);
  const hottest = Math.max(r.cpuTemperatureC ?? -Infinity, r.temperatureC ?? -Infinity);
  const discharging = r.batteryCharging !== true && r.batteryPercent !== null;
  const crosses = (rule: { percentAtLeast: number; temperatureAtLeastC: number; batteryAtMost: number }, withCpu: boolean) =>
    (memory !== null && memory >= rule.percentAtLeast) ||
    (r.diskPercent !== null && r.diskPercent >= rule.percentAtLeast) ||
    (withCpu && r.cpuPercent !== null && r.cpuPercent >= rule.percentAtLeast) ||
    hottest >= rule.temperatureAtLeastC ||
    (discharging && r.batteryPercent! <= rule.batteryAtMost);
  if (crosses(DERIVED_STATUS_RULES.error, false)) return 'error';
  if (crosses(DERIVED_STATUS_RULES.degraded, true) || r.networkConnected === false) return 'degraded';
  return 'ok';
}

/**
 * Checks readings against HEALTH_LIMITS. The HTTP codec applies the same bounds; this is the
 * rule itself, for every caller of the use case.
 */
export function checkHealthReadings(r: HealthReadings): E.Either<InvalidHealthReport, HealthReadings> {
  if (!(HEALTH_LEVELS as readonly string[]).includes(r.status)) return invalid('status', 'must be one of ok, degraded, error');
  const ranges: Array<[string, number | null, { min: number; max: number }]> = [
    ['cpu_percent', r.cpuPercent, HEALTH_LIMITS.percent],
    ['memory_percent', r.memoryPercent, HEALTH_LIMITS.percent],
    ['battery_percent', r.batteryPercent, HEALTH_LIMITS.percent],
    ['temperature_c', r.temperatureC, HEALTH_LIMITS.temperatureC],
    ['uptime_s', r.uptimeS, HEALTH_LIMITS.uptimeS],
    ['cpu_temperature', r.cpuTemperatureC, HEALTH_LIMITS.temperatureC],
    ['memory_used_mb', r.memoryUsedMb, HEALTH_LIMITS.memoryMb],
    ['memory_total_mb', r.memoryTotalMb, HEALTH_LIMITS.memoryMb],
    ['disk_percent', r.diskPercent, HEALTH_LIMITS.percent],
  ];
  for (const [field, value, { min, max }] of ranges) {
    if (value !== null && !(Number.isFinite(value) && value >= min && value <= max)) return invalid(field, `must be a number from ${min} to ${max}`);
  }
  if (r.memoryUsedMb !== null && r.memoryTotalMb !== null && r.memoryUsedMb > r.memoryTotalMb)
    return invalid('memory_used_mb', 'must not exceed memory_total_mb');
  for (const [field, flag] of [
    ['battery_charging', r.batteryCharging],
    ['network_connected', r.networkConnected],
  ] as const) {
    if (flag !== null && typeof flag !== 'boolean') return invalid(field, 'must be true, false or null');
  }
  if (r.message !== null && !hasCharacters(r.message, 0, HEALTH_LIMITS.messageMax))
    return invalid('message', `must be at most ${HEALTH_LIMITS.messageMax} characters`);
  // Texts are stored as text, which cannot hold U+0000 on PostgreSQL.
  if (r.message !== null && r.message.includes('\u0000')) return invalid('message', 'must not contain U+0000 (NUL)');
  if (
    r.networkType !== null &&
    !(typeof r.networkType === 'string' && hasCharacters(r.networkType, 1, HEALTH_LIMITS.networkTypeMax) && !r.networkType.includes('\u0000'))
  ) {
    return invalid('network_type', `must be 1 to ${HEALTH_LIMITS.networkTypeMax} characters, without U+0000`);
  }
  if (r.metrics !== null) {
    const entries = Object.entries(r.metrics);
    if (entries.length > HEALTH_LIMITS.metricsMaxKeys) return invalid('metrics', `must have at most ${HEALTH_LIMITS.metricsMaxKeys} members`);
    for (const [key, value] of entries) {
      if (!hasCharacters(key, 1, HEALTH_LIMITS.metricKeyMax)) return invalid('metrics', `member names must be 1 to ${HEALTH_LIMITS.metricKeyMax} characters`);
      if (typeof value !== 'number' || !Number.isFinite(value)) return invalid(`metrics.${key}`, 'must be a finite number');
    }
  }
  if (r.customMetrics !== null) {
    const entries = Object.entries(r.customMetrics);
    if (entries.length > HEALTH_LIMITS.metricsMaxKeys) return invalid('custom_metrics', `must have at most ${HEALTH_LIMITS.metricsMaxKeys} members`);
    for (const [key, value] of entries) {
      if (!hasCharacters(key, 1, HEALTH_LIMITS.metricKeyMax) || key.includes('\u0000')) {
        return invalid('custom_metrics', `member names must be 1 to ${HEALTH_LIMITS.metricKeyMax} characters, without U+0000`);
      }
      const fine =
        typeof value === 'boolean' ||
        (typeof value === 'number' && Number.isFinite(value)) ||
        (typeof value === 'string' && hasCharacters(value, 0, HEALTH_LIMITS.customTextMax) && !value.includes('\u0000'));
      if (!fine) return invalid(`custom_metrics.${key}`, `must be a finite number, a boolean or a string of at most ${HEALTH_LIMITS.customTextMax} characters`);
    }
  }
  return E.right(r);
}
