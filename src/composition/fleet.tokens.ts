import type { AnyRoute } from '../adapters/http/route.js';
import type { AssignDevices } from '../application/fleet/assign-devices.js';
import type { CreateGroup } from '../application/fleet/create-group.js';
import type { DeleteGroup } from '../application/fleet/delete-group.js';
import type { GetDevice } from '../application/fleet/get-device.js';
import type { EditDevice } from '../application/fleet/edit-device.js';
import type { HideDevice } from '../application/fleet/hide-device.js';
import type { OrderDevices } from '../application/fleet/order-devices.js';
import type { UpdateGroup } from '../application/fleet/update-group.js';
import type { GetDeviceHealth } from '../application/fleet/get-device-health.js';
import type { GetFleetOverview } from '../application/fleet/get-fleet-overview.js';
import type { GetGroup } from '../application/fleet/get-group.js';
import type { GetWalletStats } from '../application/fleet/get-wallet-stats.js';
import type { ListGroups } from '../application/fleet/list-groups.js';
import type { RenameDevice } from '../application/fleet/rename-device.js';
import type { ReportDeviceHealth } from '../application/fleet/report-device-health.js';
import type { UnassignDevices } from '../application/fleet/unassign-devices.js';
import type { DeviceStore } from '../application/ports/device-store.js';
import type { GroupStore } from '../application/ports/group-store.js';
import type { ProofActivityReader } from '../application/ports/proof-activity.js';
import { token } from './token.js';

/** The fleet slice: devices, their health and groups, and the wallet statistics. */
export const FLEET = {
  DeviceStore: token<DeviceStore>('fleet.DeviceStore'),
  GroupStore: token<GroupStore>('fleet.GroupStore'),
  ProofActivity: token<ProofActivityReader>('fleet.ProofActivity'),
  GetFleetOverview: token<GetFleetOverview>('fleet.GetFleetOverview'),
  GetDevice: token<GetDevice>('fleet.GetDevice'),
  RenameDevice: token<RenameDevice>('fleet.RenameDevice'),
  ReportDeviceHealth: token<ReportDeviceHealth>('fleet.ReportDeviceHealth'),
  GetDeviceHealth: token<GetDeviceHealth>('fleet.GetDeviceHealth'),
  EditDevice: token<EditDevice>('fleet.EditDevice'),
  HideDevice: token<HideDevice>('fleet.HideDevice'),
  OrderDevices: token<OrderDevices>('fleet.OrderDevices'),
  UpdateGroup: token<UpdateGroup>('fleet.UpdateGroup'),
  ListGroups: token<ListGroups>('fleet.ListGroups'),
  GetGroup: token<GetGroup>('fleet.GetGroup'),
  CreateGroup: token<CreateGroup>('fleet.CreateGroup'),
  AssignDevices: token<AssignDevices>('fleet.AssignDevices'),
  UnassignDevices: token<UnassignDevices>('fleet.UnassignDevices'),
  DeleteGroup: token<DeleteGroup>('fleet.DeleteGroup'),
  GetWalletStats: token<GetWalletStats>('fleet.GetWalletStats'),
  Routes: token<readonly AnyRoute[]>('fleet.Routes'),
} as const;
