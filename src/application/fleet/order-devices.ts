import * as E from 'fp-ts/lib/Either.js';
import { MAX_DEVICES_PER_ORDER, SORT_ORDER_MAX } from '../../domain/fleet/device.js';
import type { DeviceStore } from '../ports/device-store.js';
import type { UnknownDevices } from '../ports/group-store.js';
import type { InvalidDeviceIds } from './fleet-errors.js';

export interface DeviceOrder {
  readonly deviceId: string;
  readonly sortOrder: number;
}

/**
 * Places devices in the overview's order (smallest sort order first; devices never placed
 * come last, by id). All or nothing: an id the wallet has no device for changes nothing, and
 * every such id is named. Equal orders are allowed (ties list by id).
 */
export class OrderDevices {
  constructor(private readonly store: DeviceStore) {}

  async execute(input: { wallet: string; orders: readonly DeviceOrder[] }): Promise<E.Either<InvalidDeviceIds | UnknownDevices, { readonly updated: number }>> {
    const { orders } = input;
    if (orders.length === 0 || orders.length > MAX_DEVICES_PER_ORDER) {
      return E.left({ _tag: 'InvalidDeviceIds', detail: `device_orders must hold 1 to ${MAX_DEVICES_PER_ORDER} devices` });
    }
    if (new Set(orders.map((o) => o.deviceId)).size !== orders.length)
      return E.left({ _tag: 'InvalidDeviceIds', detail: 'device_orders must name each device once' });
    if (!orders.every((o) => Number.isSafeInteger(o.sortOrder) && o.sortOrder >= 0 && o.sortOrder <= SORT_ORDER_MAX)) {
      return E.left({ _tag: 'InvalidDeviceIds', detail: `each sort_order must be an integer from 0 to ${SORT_ORDER_MAX}` });
    }
    const result = await this.store.orderDevices(input.wallet, orders);
    if (result.unknown.length > 0) return E.left({ _tag: 'UnknownDevices', deviceIds: result.unknown });
    return E.right({ updated: result.updated });
  }
}
