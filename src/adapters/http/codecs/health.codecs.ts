import * as t from 'io-ts';
import { HEALTH_LEVELS, HEALTH_LIMITS, type CustomMetricValue, type HealthLevel } from '../../../domain/fleet/health-report.js';
import { hasCharacters } from '../../../domain/text/characters.js';
import { hasLoneSurrogate, NullableString } from './common.codecs.js';
import { custom, nullable, oneOf, reading, recordOf } from './fleet-field.codecs.js';

/** A device's health report as it is sent (POST /v1/fleet/devices/{device_id}/health) and read back. */

/** Text a store can hold as written: `min` to `max` characters, no U+0000, no lone surrogate. */
const storableText = (u: unknown, min: number, max: number): u is string =>
  typeof u === 'string' && hasCharacters(u, min, max) && !u.includes('\u0000') && !hasLoneSurrogate(u);

const Metrics = recordOf<number>(
  'metrics',
  HEALTH_LIMITS.metricsMaxKeys,
  (k, v) => k.length >= 1 && k.length <= HEALTH_LIMITS.metricKeyMax && typeof v === 'number' && Number.isFinite(v),
  () => `must be an object of at most ${HEALTH_LIMITS.metricsMaxKeys} numbers, named with 1 to ${HEALTH_LIMITS.metricKeyMax} characters`,
  { type: ['object', 'null'], additionalProperties: { type: 'number' }, maxProperties: HEALTH_LIMITS.metricsMaxKeys },
);

const Message = custom<string | null>(
  'message',
  (u): u is string | null => u === null || typeof u === 'string',
  (u) => (u === null ? null : storableText(u, 0, HEALTH_LIMITS.messageMax) ? u : undefined),
  () => `must be a string of at most ${HEALTH_LIMITS.messageMax} characters, without U+0000 or a lone surrogate`,
  { type: ['string', 'null'], maxLength: HEALTH_LIMITS.messageMax },
);

const Flag = (name: string) =>
  custom<boolean | null>(
    name,
    (u): u is boolean | null => u === null || typeof u === 'boolean',
    (u) => (u === null || typeof u === 'boolean' ? u : undefined),
    () => 'must be true, false or null',
    {
      type: ['boolean', 'null'],
    },
  );

const NetworkType = custom<string | null>(
  'network_type',
  (u): u is string | null => u === null || typeof u === 'string',
  (u) => (u === null ? null : storableText(u, 1, HEALTH_LIMITS.networkTypeMax) ? u : undefined),
  () => `must be a string of 1 to ${HEALTH_LIMITS.networkTypeMax} characters (e.g. wifi, ethernet, cellular), without U+0000 or a lone surrogate`,
  { type: ['string', 'null'], minLength: 1, maxLength: HEALTH_LIMITS.networkTypeMax, example: 'wifi' },
);

const isCustomValue = (v: unknown): boolean =>
  typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v)) || storableText(v, 0, HEALTH_LIMITS.customTextMax);

const CustomMetrics = recordOf<CustomMetricValue>(
  'custom_metrics',
  HEALTH_LIMITS.metricsMaxKeys,
  (k, v) => storableText(k, 1, HEALTH_LIMITS.metricKeyMax) && isCustomValue(v),
  () =>
    `must be an object of at most ${HEALTH_LIMITS.metricsMaxKeys} members, named with 1 to ${HEALTH_LIMITS.metricKeyMax} characters, each a finite number, a boolean or a string of at most ${HEALTH_LIMITS.customTextMax} characters`,
  {
    type: ['object', 'null'],
    additionalProperties: { anyOf: [{ type: 'number' }, { type: 'boolean' }, { type: 'string', maxLength: HEALTH_LIMITS.customTextMax }] },
    maxProperties: HEALTH_LIMITS.metricsMaxKeys,
  },
);

/**
 * A health report. Every reading is optional; `status` too, derived from the readings when
 * absent (docs/fleet-and-scoring.md). `temperature` and `uptime_seconds` (the ACTO SDK's
 * names) are the same readings as `temperature_c` and `uptime_s`: send either name.
 */
export const HealthBody = t.partial(
  {
    status: nullable(oneOf<HealthLevel>('status', HEALTH_LEVELS), 'status'),
    cpu_percent: reading('cpu_percent', HEALTH_LIMITS.percent),
    memory_percent: reading('memory_percent', HEALTH_LIMITS.percent),
    battery_percent: reading('battery_percent', HEALTH_LIMITS.percent),
    temperature_c: reading('temperature_c', HEALTH_LIMITS.temperatureC),
    temperature: reading('temperature', HEALTH_LIMITS.temperatureC),
    uptime_s: reading('uptime_s', HEALTH_LIMITS.uptimeS),
    uptime_seconds: reading('uptime_seconds', HEALTH_LIMITS.uptimeS),
    message: Message,
    metrics: Metrics,
    cpu_temperature: reading('cpu_temperature', HEALTH_LIMITS.temperatureC),
    memory_used_mb: reading('memory_used_mb', HEALTH_LIMITS.memoryMb),
    memory_total_mb: reading('memory_total_mb', HEALTH_LIMITS.memoryMb),
    battery_charging: Flag('battery_charging'),
    disk_percent: reading('disk_percent', HEALTH_LIMITS.percent),
    network_connected: Flag('network_connected'),
    network_type: NetworkType,
    custom_metrics: CustomMetrics,
  },
  'HealthReport',
);

const NullableNumber = t.union([t.number, t.null]);

export const HealthReportResponse = t.intersection(
  [
    t.type({
      status: t.keyof({ ok: null, degraded: null, error: null }),
      cpu_percent: NullableNumber,
      memory_percent: NullableNumber,
      battery_percent: NullableNumber,
      temperature_c: NullableNumber,
      uptime_s: NullableNumber,
      message: NullableString,
      metrics: t.union([t.record(t.string, t.number), t.null]),
      received_at: t.string,
    }),
    // The further readings, present when the device sent them; status_derived when it sent no status.
    t.partial({
      cpu_temperature: t.number,
      memory_used_mb: t.number,
      memory_total_mb: t.number,
      battery_charging: t.boolean,
      disk_percent: t.number,
      network_connected: t.boolean,
      network_type: t.string,
      custom_metrics: t.record(t.string, t.union([t.string, t.number, t.boolean])),
      status_derived: t.literal(true),
    }),
  ],
  'HealthReport',
);

export const LatestHealthResponse = t.type({ device_id: t.string, health: t.union([HealthReportResponse, t.null]) }, 'LatestHealth');
