import { AssignDevices } from './application/fleet/assign-devices.js';
import { CreateGroup } from './application/fleet/create-group.js';
import { DeleteGroup } from './application/fleet/delete-group.js';
import { GetDevice } from './application/fleet/get-device.js';
import { GetFleetOverview } from './application/fleet/get-fleet-overview.js';
import { GetGroup } from './application/fleet/get-group.js';
import { GetWalletStats, type KeyUsageTotals } from './application/fleet/get-wallet-stats.js';
import { ListGroups } from './application/fleet/list-groups.js';
import { RenameDevice } from './application/fleet/rename-device.js';
import { ReportDeviceHealth } from './application/fleet/report-device-health.js';
import { UnassignDevices } from './application/fleet/unassign-devices.js';
import type { Clock } from './application/ports/clock.js';
import type { DeviceStore } from './application/ports/device-store.js';
import type { GroupStore } from './application/ports/group-store.js';
import type { ProofActivityReader } from './application/ports/proof-activity.js';
import type { ProofStore } from './application/ports/proof-store.js';
import type { HttpMetrics } from './adapters/http/http-metrics.js';
import type { AnyRoute } from './adapters/http/route.js';
import { fleetRoutes } from './adapters/http/routes/fleet-routes.js';
import { statsRoutes } from './adapters/http/routes/stats-routes.js';
import type { Config } from './config.js';
import { countByStatus, cutoffsAt, type StatusWindows } from './domain/fleet/device-status.js';

export interface FleetPorts {
  readonly devices: DeviceStore;
  readonly groups: GroupStore;
  readonly proofs: ProofStore;
  readonly activity: ProofActivityReader;
  readonly keyUsage: KeyUsageTotals;
  readonly clock: Clock;
  readonly config: Config;
  readonly metrics: HttpMetrics;
}

export const statusWindows = (config: Pick<Config, 'deviceOnlineWindowS' | 'deviceOfflineAfterS'>): StatusWindows => ({
  onlineWindowMs: config.deviceOnlineWindowS * 1000,
  offlineAfterMs: config.deviceOfflineAfterS * 1000,
});

/**
 * Part of the composition root (container.ts): the fleet and statistics use cases on their
 * ports, as routes, and the devices-by-status gauge on the fleet store.
 */
export function fleetRouteSet(p: FleetPorts): AnyRoute[] {
  const windows = statusWindows(p.config);
  p.metrics.countDevicesWith(async () => countByStatus(await p.devices.deviceBuckets(null, cutoffsAt(p.clock.nowMs(), windows))));
  return [
    ...fleetRoutes({
      overview: new GetFleetOverview(p.devices, p.groups, p.clock, windows),
      getDevice: new GetDevice(p.devices, p.proofs, p.clock, windows),
      rename: new RenameDevice(p.devices, p.clock, windows),
      reportHealth: new ReportDeviceHealth(p.devices, p.clock, { windows, historyLimit: p.config.healthHistoryLimit }),
      listGroups: new ListGroups(p.groups),
      getGroup: new GetGroup(p.groups),
      createGroup: new CreateGroup(p.groups, p.clock),
      assign: new AssignDevices(p.groups),
      unassign: new UnassignDevices(p.groups),
      deleteGroup: new DeleteGroup(p.groups),
      metrics: p.metrics,
    }),
    ...statsRoutes({ stats: new GetWalletStats(p.devices, p.groups, p.activity, p.keyUsage, p.clock, windows) }),
  ];
}
