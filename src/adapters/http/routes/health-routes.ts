import type { GetDeviceHealth } from '../../../application/fleet/get-device-health.js';
import type { ReportDeviceHealth, ReportedReadings } from '../../../application/fleet/report-device-health.js';
import type { CustomMetricValue } from '../../../domain/fleet/health-report.js';
import * as c from '../codecs/fleet.codecs.js';
import { HttpError, orProblem } from '../http-error.js';
import type { HttpMetrics } from '../http-metrics.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED, BODY } from './error-responses.js';
import { deviceBody, healthBody } from './fleet-bodies.js';
import { fleetErrors as errors, fleetProblem } from './fleet-problems.js';

export interface HealthRouteDeps {
  readonly reportHealth: ReportDeviceHealth;
  readonly deviceHealth: GetDeviceHealth;
  readonly metrics: HttpMetrics;
}

/** A device's health reports: a robot sends them, the dashboard reads the latest. */
export function healthRoutes(d: HealthRouteDeps): AnyRoute[] {
  const jwt = 'jwt' as const;
  return [
    route({
      method: 'post',
      path: '/v1/fleet/devices/{device_id}/health',
      operationId: 'reportDeviceHealth',
      tag: 'fleet',
      summary: "Report a device's health",
      description:
        "Takes an API key as well as a dashboard token: a robot holds a key, not a wallet, and reports its own health. Creates the device if the wallet has not seen it, and shows it again if it was hidden. Every reading is optional and kept as sent; `temperature` and `uptime_seconds` are other names of `temperature_c` and `uptime_s` (both names of one reading must agree). Without `status` the registry derives one from the readings (docs/fleet-and-scoring.md) and says so with `status_derived`. The report is stamped with the registry's clock; each device keeps its latest HEALTH_HISTORY_LIMIT reports.",
      auth: 'api_key',
      scope: 'health:write',
      params: c.DeviceIdParams,
      body: c.HealthBody,
      responses: { 201: { description: 'Stored; the device as it now is.', body: c.HealthRecordedResponse }, ...errors(...BODY, ...AUTHED) },
      handle: async ({ params, body, principal }) => {
        const recorded = orProblem(
          await d.reportHealth.execute({
            wallet: principal.wallet,
            deviceId: params.device_id,
            robotIds: principal.grant.robotIds,
            readings: {
              ...sdkReadings(body),
              status: body.status ?? null,
              temperatureC: oneReading(body, 'temperature_c', 'temperature'),
              uptimeS: oneReading(body, 'uptime_s', 'uptime_seconds'),
              message: body.message ?? null,
              metrics: body.metrics ?? null,
            },
          }),
          fleetProblem,
        );
        d.metrics.healthReports.inc({ status: recorded.report.status });
        return { status: 201, body: { report: healthBody(recorded.report), device: deviceBody(recorded.device) } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/fleet/devices/{device_id}/health',
      operationId: 'getDeviceHealth',
      tag: 'fleet',
      summary: "A device's latest health report",
      description: "`health` is null when the device never reported. Another wallet's device is 404.",
      auth: jwt,
      params: c.DeviceIdParams,
      responses: { 200: { description: 'The latest report.', body: c.LatestHealthResponse }, ...errors(404, ...AUTHED) },
      handle: async ({ params, principal }) => {
        const latest = orProblem(await d.deviceHealth.execute({ wallet: principal.wallet, deviceId: params.device_id }), fleetProblem);
        return { status: 200, body: { device_id: latest.deviceId, health: latest.health ? healthBody(latest.health) : null } };
      },
    }),
  ];
}

/** The readings the ACTO SDK sends, named alike in both health bodies (/v1's and /acto's). */
export interface SdkReadingsBody {
  readonly cpu_percent?: number | null;
  readonly cpu_temperature?: number | null;
  readonly memory_percent?: number | null;
  readonly memory_used_mb?: number | null;
  readonly memory_total_mb?: number | null;
  readonly battery_percent?: number | null;
  readonly battery_charging?: boolean | null;
  readonly disk_percent?: number | null;
  readonly network_connected?: boolean | null;
  readonly network_type?: string | null;
  readonly custom_metrics?: Record<string, CustomMetricValue> | null;
}

/** Those readings as the use case takes them, each null when not sent. */
export function sdkReadings(body: SdkReadingsBody): ReportedReadings {
  return {
    cpuPercent: body.cpu_percent ?? null,
    cpuTemperatureC: body.cpu_temperature ?? null,
    memoryPercent: body.memory_percent ?? null,
    memoryUsedMb: body.memory_used_mb ?? null,
    memoryTotalMb: body.memory_total_mb ?? null,
    batteryPercent: body.battery_percent ?? null,
    batteryCharging: body.battery_charging ?? null,
    diskPercent: body.disk_percent ?? null,
    networkConnected: body.network_connected ?? null,
    networkType: body.network_type ?? null,
    customMetrics: body.custom_metrics ?? null,
  };
}

/** One reading sent under either of its two names; both names with different values is a 422. */
function oneReading<K extends string, A extends string>(body: Partial<Record<K | A, number | null>>, name: K, alias: A): number | null {
  const [a, b] = [body[name] ?? null, body[alias] ?? null];
  if (a !== null && b !== null && a !== b)
    throw new HttpError(422, `${name} and ${alias} are one reading and must agree (got ${a} and ${b})`, { code: 'validation_error', path: alias });
  return a ?? b;
}
