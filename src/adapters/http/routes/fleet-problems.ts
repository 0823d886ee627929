import type { FleetError } from '../../../application/fleet/fleet-errors.js';
import { describeInvalidText } from '../../../domain/fleet/names.js';
import { robotProblem } from '../auth-problems.js';
import { HttpError } from '../http-error.js';
import { errorResponses } from './error-responses.js';

/** Every business failure of the fleet and statistics use cases, to its status: one exhaustive switch. */
export function fleetProblem(e: FleetError): HttpError {
  switch (e._tag) {
    case 'DeviceNotFound':
      return new HttpError(404, `device ${e.deviceId} not found`, { code: 'device_not_found' });
    case 'GroupNotFound':
      return new HttpError(404, `group ${e.groupId} not found`, { code: 'group_not_found' });
    case 'UnknownDevices':
      return new HttpError(404, `unknown device ids: ${e.deviceIds.join(', ')}`, { code: 'unknown_devices', device_ids: e.deviceIds });
    case 'GroupNameTaken':
      return new HttpError(409, `a group named "${e.name}" already exists`, { code: 'group_name_taken' });
    case 'GroupLimitReached':
      return new HttpError(409, `a wallet may have at most ${e.limit} groups`, { code: 'group_limit_reached' });
    case 'InvalidCursor':
      return new HttpError(422, 'cursor is not one this service issued for this list', { code: 'invalid_cursor' });
    case 'InvalidDeviceIds':
      return new HttpError(422, e.detail, { code: 'validation_error', path: 'device_ids' });
    case 'InvalidText':
      return new HttpError(422, describeInvalidText(e), { code: 'validation_error', path: e.field });
    case 'InvalidHealthReport':
      return new HttpError(422, e.detail, { code: 'validation_error', path: e.field });
    case 'InvalidDays':
      return new HttpError(422, `days must be an integer from 1 to 365 (got ${e.days})`, { code: 'validation_error', path: 'days' });
    case 'NothingToChange':
      return new HttpError(422, 'the body must hold at least one member to change', { code: 'validation_error' });
    case 'RobotNotAllowed':
      return robotProblem(e);
    case 'NotYourWallet':
      return new HttpError(403, 'statistics are only available for your own wallet', { code: 'forbidden_wallet' });
  }
}

/** What the fleet's error statuses mean, in the OpenAPI document of every route of the family (/v1 and /acto). */
export const fleetErrors = errorResponses({
  404: "No such device or group for this wallet (another wallet's are never revealed).",
  409: 'A group of that name exists, or the wallet has the most groups allowed.',
});
