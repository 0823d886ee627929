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
  messageMax: 1000,
  metricsMaxKeys: 50,
  metricKeyMax: 64,
} as const;

/** What a device says about itself; every reading is optional. */
export interface HealthReadings {
  readonly status: HealthLevel;
  readonly cpuPercent: number | null;
  readonly memoryPercent: number | null;
  readonly batteryPercent: number | null;
  readonly temperatureC: number | null;
  readonly uptimeS: number | null;
  readonly message: string | null;
  /** Free-form numeric readings by name (at most 50). */
  readonly metrics: Readonly<Record<string, number>> | null;
}

/** A report as kept: the readings and when the registry received them (its own clock). */
export interface HealthReport extends HealthReadings {
  readonly receivedAtMs: number;
}

export interface InvalidHealthReport {
  readonly _tag: 'InvalidHealthReport';
  /** The member at fault, as the client named it (e.g. `cpu_percent`, `metrics.fan_rpm`). */
  readonly field: string;
  readonly detail: string;
}

const invalid = (field: string, detail: string): E.Either<InvalidHealthReport, never> =>
  E.left({ _tag: 'InvalidHealthReport', field, detail: `${field} ${detail}` });

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
  ];
  for (const [field, value, { min, max }] of ranges) {
    if (value !== null && !(Number.isFinite(value) && value >= min && value <= max)) return invalid(field, `must be a number from ${min} to ${max}`);
  }
  if (r.message !== null && !hasCharacters(r.message, 0, HEALTH_LIMITS.messageMax)) return invalid('message', `must be at most ${HEALTH_LIMITS.messageMax} characters`);
  // The message is stored as text, which cannot hold U+0000 on PostgreSQL.
  if (r.message !== null && r.message.includes('\u0000')) return invalid('message', 'must not contain U+0000 (NUL)');
  if (r.metrics !== null) {
    const entries = Object.entries(r.metrics);
    if (entries.length > HEALTH_LIMITS.metricsMaxKeys) return invalid('metrics', `must have at most ${HEALTH_LIMITS.metricsMaxKeys} members`);
    for (const [key, value] of entries) {
      if (!hasCharacters(key, 1, HEALTH_LIMITS.metricKeyMax)) return invalid('metrics', `member names must be 1 to ${HEALTH_LIMITS.metricKeyMax} characters`);
      if (typeof value !== 'number' || !Number.isFinite(value)) return invalid(`metrics.${key}`, 'must be a finite number');
    }
  }
  return E.right(r);
}
