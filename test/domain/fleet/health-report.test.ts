import test from 'ava';
import { checkHealthReadings, deriveHealthLevel, NO_READINGS, type HealthLevel, type HealthReadings } from '../../../src/domain/fleet/health-report.js';

const ok: HealthReadings = { status: 'ok', ...NO_READINGS };

const valid: Array<[string, Partial<HealthReadings>]> = [
  ['status only', {}],
  ['degraded', { status: 'degraded' }],
  ['error', { status: 'error' }],
  ['percentages at their bounds', { cpuPercent: 0, memoryPercent: 100, batteryPercent: 55.5 }],
  ['cold and hot', { temperatureC: -273.15 }],
  ['long uptime', { uptimeS: 86_400 * 365 * 10 }],
  ['a message of 1000 characters', { message: 'm'.repeat(1000) }],
  ['metrics', { metrics: { fan_rpm: 1200, 'disk.free': -1.5 } }],
  [
    "the ACTO SDK's metric set",
    { cpuTemperatureC: 61.5, memoryUsedMb: 2048, memoryTotalMb: 4096, batteryCharging: true, diskPercent: 40, networkConnected: false, networkType: 'wifi' },
  ],
  ['custom metrics of text, numbers and booleans', { customMetrics: { firmware: '1.2.3', arm_ok: true, load: 0.5, empty: '' } }],
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
  ['disk over 100', { diskPercent: 101 }, 'disk_percent'],
  ['cpu colder than absolute zero', { cpuTemperatureC: -300 }, 'cpu_temperature'],
  ['more memory used than there is', { memoryUsedMb: 5000, memoryTotalMb: 4096 }, 'memory_used_mb'],
  ['negative memory', { memoryTotalMb: -1 }, 'memory_total_mb'],
  ['an empty network type', { networkType: '' }, 'network_type'],
  ['a custom metric that is an object', { customMetrics: { nested: {} as never } }, 'custom_metrics.nested'],
  ['a custom text too long', { customMetrics: { note: 'n'.repeat(257) } }, 'custom_metrics.note'],
  ['too many custom metrics', { customMetrics: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`m${i}`, true])) }, 'custom_metrics'],
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

const derived: Array<[string, Partial<HealthReadings>, HealthLevel]> = [
  ['nothing measured', {}, 'ok'],
  ['a healthy robot', { cpuPercent: 40, memoryPercent: 50, diskPercent: 30, batteryPercent: 80, cpuTemperatureC: 55, networkConnected: true }, 'ok'],
  ['a busy CPU is degraded, not an error', { cpuPercent: 99 }, 'degraded'],
  ['memory at 90 %', { memoryPercent: 90 }, 'degraded'],
  ['memory at 98 %, from used and total', { memoryUsedMb: 4020, memoryTotalMb: 4096 }, 'error'],
  ['a full disk', { diskPercent: 99 }, 'error'],
  ['a hot CPU', { cpuTemperatureC: 82 }, 'degraded'],
  ['an overheating device', { temperatureC: 95 }, 'error'],
  ['a low battery, discharging', { batteryPercent: 12, batteryCharging: false }, 'degraded'],
  ['a low battery, charging', { batteryPercent: 12, batteryCharging: true }, 'ok'],
  ['an empty battery, charging state unknown', { batteryPercent: 4 }, 'error'],
  ['no network', { networkConnected: false }, 'degraded'],
];

for (const [title, readings, level] of derived) {
  test(`derived status: ${title} → ${level}`, (t) => {
    t.is(deriveHealthLevel({ ...NO_READINGS, ...readings }), level);
  });
}
