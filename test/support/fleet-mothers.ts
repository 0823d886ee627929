import type { HealthLevel, HealthReport } from '../../src/domain/fleet/health-report.js';

/** A health report with no readings unless given. */
export const aReport = (status: HealthLevel, receivedAtMs: number, extra: Partial<HealthReport> = {}): HealthReport => ({
  status,
  cpuPercent: null,
  memoryPercent: null,
  batteryPercent: null,
  temperatureC: null,
  uptimeS: null,
  message: null,
  metrics: null,
  receivedAtMs,
  ...extra,
});
