import { ContainerModule } from 'inversify';
import { fleetRoutes } from '../adapters/http/routes/fleet-routes.js';
import { statsRoutes } from '../adapters/http/routes/stats-routes.js';
import { KnexDeviceStore } from '../adapters/sql/knex-device-store.js';
import { KnexGroupStore } from '../adapters/sql/knex-group-store.js';
import { KnexProofActivity } from '../adapters/sql/knex-proof-activity.js';
import { AssignDevices } from '../application/fleet/assign-devices.js';
import { CreateGroup } from '../application/fleet/create-group.js';
import { DeleteGroup } from '../application/fleet/delete-group.js';
import { GetDevice } from '../application/fleet/get-device.js';
import { EditDevice } from '../application/fleet/edit-device.js';
import { HideDevice } from '../application/fleet/hide-device.js';
import { OrderDevices } from '../application/fleet/order-devices.js';
import { UpdateGroup } from '../application/fleet/update-group.js';
import { GetDeviceHealth } from '../application/fleet/get-device-health.js';
import { GetFleetOverview } from '../application/fleet/get-fleet-overview.js';
import { GetGroup } from '../application/fleet/get-group.js';
import { GetWalletStats } from '../application/fleet/get-wallet-stats.js';
import { ListGroups } from '../application/fleet/list-groups.js';
import { RenameDevice } from '../application/fleet/rename-device.js';
import { ReportDeviceHealth } from '../application/fleet/report-device-health.js';
import { UnassignDevices } from '../application/fleet/unassign-devices.js';
import type { Config } from '../config.js';
import type { StatusWindows } from '../domain/fleet/device-status.js';
import { CORE } from './core.tokens.js';
import { FLEET } from './fleet.tokens.js';
import { IDENTITY } from './identity.tokens.js';
import { PROOFS } from './proofs.tokens.js';
import type { Slice } from './slice.js';
import { provide } from './token.js';

/** When a device counts as online, and when as offline (DEVICE_ONLINE_WINDOW_S, DEVICE_OFFLINE_AFTER_S). */
export const statusWindows = (config: Pick<Config, 'deviceOnlineWindowS' | 'deviceOfflineAfterS'>): StatusWindows => ({
  onlineWindowMs: config.deviceOnlineWindowS * 1000,
  offlineAfterMs: config.deviceOfflineAfterS * 1000,
});

const module = new ContainerModule(({ bind }) => {
  provide(bind, FLEET.DeviceStore, [CORE.Database], (database) => new KnexDeviceStore(database));
  provide(bind, FLEET.GroupStore, [CORE.Database], (database) => new KnexGroupStore(database));
  provide(bind, FLEET.ProofActivity, [CORE.Database], (database) => new KnexProofActivity(database));

  provide(
    bind,
    FLEET.GetFleetOverview,
    [FLEET.DeviceStore, FLEET.GroupStore, CORE.Clock, CORE.Config],
    (devices, groups, clock, config) => new GetFleetOverview(devices, groups, clock, statusWindows(config)),
  );
  provide(
    bind,
    FLEET.GetDevice,
    [FLEET.DeviceStore, PROOFS.Store, CORE.Clock, CORE.Config],
    (devices, proofs, clock, config) => new GetDevice(devices, proofs, clock, statusWindows(config)),
  );
  provide(
    bind,
    FLEET.RenameDevice,
    [FLEET.DeviceStore, CORE.Clock, CORE.Config],
    (devices, clock, config) => new RenameDevice(devices, clock, statusWindows(config)),
  );
  provide(
    bind,
    FLEET.ReportDeviceHealth,
    [FLEET.DeviceStore, CORE.Clock, CORE.Config],
    (devices, clock, config) => new ReportDeviceHealth(devices, clock, { windows: statusWindows(config), historyLimit: config.healthHistoryLimit }),
  );
  provide(bind, FLEET.GetDeviceHealth, [FLEET.DeviceStore], (devices) => new GetDeviceHealth(devices));
  provide(
    bind,
    FLEET.EditDevice,
    [FLEET.DeviceStore, CORE.Clock, CORE.Config],
    (devices, clock, config) => new EditDevice(devices, clock, statusWindows(config)),
  );
  provide(bind, FLEET.HideDevice, [FLEET.DeviceStore, CORE.Clock], (devices, clock) => new HideDevice(devices, clock));
  provide(bind, FLEET.OrderDevices, [FLEET.DeviceStore], (devices) => new OrderDevices(devices));
  provide(bind, FLEET.UpdateGroup, [FLEET.GroupStore], (groups) => new UpdateGroup(groups));
  provide(bind, FLEET.ListGroups, [FLEET.GroupStore], (groups) => new ListGroups(groups));
  provide(bind, FLEET.GetGroup, [FLEET.GroupStore], (groups) => new GetGroup(groups));
  provide(bind, FLEET.CreateGroup, [FLEET.GroupStore, CORE.Clock], (groups, clock) => new CreateGroup(groups, clock));
  provide(bind, FLEET.AssignDevices, [FLEET.GroupStore], (groups) => new AssignDevices(groups));
  provide(bind, FLEET.UnassignDevices, [FLEET.GroupStore], (groups) => new UnassignDevices(groups));
  provide(bind, FLEET.DeleteGroup, [FLEET.GroupStore], (groups) => new DeleteGroup(groups));
  provide(
    bind,
    FLEET.GetWalletStats,
    [FLEET.DeviceStore, FLEET.GroupStore, FLEET.ProofActivity, IDENTITY.KeyUsageTotals, CORE.Clock, CORE.Config, PROOFS.WalletStats],
    (devices, groups, activity, keyUsage, clock, config, walletStats) =>
      new GetWalletStats(devices, groups, activity, keyUsage, clock, statusWindows(config), walletStats),
  );

  provide(
    bind,
    FLEET.Routes,
    [
      FLEET.GetFleetOverview,
      FLEET.GetDevice,
      FLEET.RenameDevice,
      FLEET.ReportDeviceHealth,
      FLEET.GetDeviceHealth,
      FLEET.EditDevice,
      FLEET.HideDevice,
      FLEET.OrderDevices,
      FLEET.UpdateGroup,
      FLEET.ListGroups,
      FLEET.GetGroup,
      FLEET.CreateGroup,
      FLEET.AssignDevices,
      FLEET.UnassignDevices,
      FLEET.DeleteGroup,
      FLEET.GetWalletStats,
      CORE.Metrics,
    ],
    (
      overview,
      getDevice,
      rename,
      reportHealth,
      deviceHealth,
      editDevice,
      hideDevice,
      orderDevices,
      updateGroup,
      listGroups,
      getGroup,
      createGroup,
      assign,
      unassign,
      deleteGroup,
      stats,
      metrics,
    ) => {
      return [
        ...fleetRoutes({
          overview,
          getDevice,
          rename,
          reportHealth,
          deviceHealth,
          editDevice,
          hideDevice,
          orderDevices,
          updateGroup,
          listGroups,
          getGroup,
          createGroup,
          assign,
          unassign,
          deleteGroup,
          metrics,
        }),
        ...statsRoutes({ stats }),
      ];
    },
  );
});

/** Devices and their health, groups, the fleet overview and the wallet statistics. */
export const fleetSlice: Slice = { name: 'fleet', module, routes: FLEET.Routes };
