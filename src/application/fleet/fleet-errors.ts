import type { InvalidText } from '../../domain/fleet/names.js';
import type { InvalidHealthReport } from '../../domain/fleet/health-report.js';
import type { RobotNotAllowed } from '../../domain/identity/key-grant.js';
import type { GroupLimitReached, GroupNameTaken, GroupNotFound, UnknownDevices } from '../ports/group-store.js';

/** Business failures of the fleet use cases; the HTTP adapter maps each tag to a status. */
export type DeviceNotFound = { readonly _tag: 'DeviceNotFound'; readonly deviceId: string };
export type InvalidCursor = { readonly _tag: 'InvalidCursor' };
export type InvalidDeviceIds = { readonly _tag: 'InvalidDeviceIds'; readonly detail: string };
/** Statistics of a wallet other than the caller's. */
export type NotYourWallet = { readonly _tag: 'NotYourWallet'; readonly wallet: string };

export type { GroupLimitReached, GroupNameTaken, GroupNotFound, InvalidHealthReport, InvalidText, RobotNotAllowed, UnknownDevices };

/** An edit whose body names nothing to change. */
export type NothingToChange = { readonly _tag: 'NothingToChange' };

/** A statistics timeline of a length outside 1–365 days. */
export type InvalidDays = { readonly _tag: 'InvalidDays'; readonly days: number };

export type FleetError =
  | InvalidDays
  | NothingToChange
  | DeviceNotFound
  | InvalidCursor
  | InvalidDeviceIds
  | NotYourWallet
  | GroupLimitReached
  | GroupNameTaken
  | GroupNotFound
  | InvalidHealthReport
  | RobotNotAllowed
  | InvalidText
  | UnknownDevices;
