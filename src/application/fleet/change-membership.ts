import * as E from 'fp-ts/lib/Either.js';
import { MAX_DEVICES_PER_CHANGE } from '../../domain/fleet/group.js';
import type { InvalidDeviceIds } from './fleet-errors.js';

/** The ids of an assign or unassign request, repeats dropped, first occurrence kept. */
export function distinctDeviceIds(ids: readonly string[]): E.Either<InvalidDeviceIds, readonly string[]> {
  const distinct = [...new Set(ids)];
  if (distinct.length === 0) return E.left({ _tag: 'InvalidDeviceIds', detail: 'device_ids must hold at least one id' });
  if (distinct.length > MAX_DEVICES_PER_CHANGE) {
    return E.left({ _tag: 'InvalidDeviceIds', detail: `device_ids must hold at most ${MAX_DEVICES_PER_CHANGE} ids` });
  }
  return E.right(distinct);
}
