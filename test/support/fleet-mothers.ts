import { NO_READINGS, type HealthLevel, type HealthReport } from '../../src/domain/fleet/health-report.js';

/** A health report with no readings unless given. */
export const aReport = (status: HealthLevel, receivedAtMs: number, extra: Partial<HealthReport> = {}): HealthReport => ({
  status,
  ...NO_READINGS,
  receivedAtMs,
  statusDerived: false,
  ...extra,
});
