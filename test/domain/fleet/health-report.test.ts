import test from 'ava';
import { checkHealthReadings, type HealthReadings } from '../../../src/domain/fleet/health-report.js';

const ok: HealthReadings = { status: 'ok', cpuPercent: null, memoryPercent: null, batteryPercent: null, temperatureC: null, uptimeS: null, message: null, metrics: null };

const valid: Array<[string, Partial<HealthReadings>]> = [
  ['status only', {}],
  ['degraded', { status: 'degraded' }],
  ['error', { status: 'error' }],
  ['percentages at their bounds', { cpuPercent: 0, memoryPercent: 100, batteryPercent: 55.5 }],
  ['cold and hot', { temperatureC: -273.15 }],
  ['long uptime', { uptimeS: 86_400 * 365 * 10 }],
  ['a message of 1000 characters', { message: 'm'.repeat(1000) }],
  ['metrics', { metrics: { fan_rpm: 1200, 'disk.free': -1.5 } }],
  ['fifty metrics', { metrics: Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`m${i}`, i])) }],
];

const invalid: Array<[string, Partial<HealthReadings>, string]> = [
  ['unknown status', { status: 'fine' as never }, 'status'],
  ['cpu over 100', { cpuPercent: 100.01 }, 'cpu_percent'],
  ['memory below 0', { memoryPercent: -1 }, 'memory_percent'],
  ['battery NaN', { batteryPercent: Number.NaN }, 'battery_percent'],
  ['battery infinite', { batteryPercent: Number.POSITIVE_INFINITY }, 'battery_percent'],
  ['below absolute zero', { temperatureC: -274 }, 'temperature_c'],
  ['negative uptime', { uptimeS: -1 }, 'uptime_s'],
  ['message too long', { message: 'm'.repeat(1001) }, 'message'],
  ['too many metrics', { metrics: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`m${i}`, i])) }, 'metrics'],
  ['metric name too long', { metrics: { ['k'.repeat(65)]: 1 } }, 'metrics'],
  ['metric not a number', { metrics: { fan: 'fast' as never } }, 'metrics.fan'],
];

for (const [title, readings] of valid) {
  test(`health readings valid: ${title}`, (t) => {
    t.deepEqual(checkHealthReadings({ ...ok, ...readings }), { _tag: 'Right', right: { ...ok, ...readings } });
  });
}

for (const [title, readings, field] of invalid) {
  test(`health readings invalid: ${title}`, (t) => {
    const result = checkHealthReadings({ ...ok, ...readings });
    t.like(result, { _tag: 'Left', left: { _tag: 'InvalidHealthReport', field } });
    if (result._tag === 'Left') t.true(result.left.detail.startsWith(field));
  });
}
