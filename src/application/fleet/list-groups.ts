import * as E from 'fp-ts/lib/Either.js';
import type { GroupStore, GroupView } from '../ports/group-store.js';
import type { InvalidCursor } from './fleet-errors.js';
import { decodeFleetCursor, encodeFleetCursor } from './fleet-cursor.js';

export interface GroupList {
  readonly items: readonly GroupView[];
  readonly nextCursor: string | null;
}

/** The wallet's groups by name, each with its device ids. */
export class ListGroups {
  constructor(private readonly store: GroupStore) {}

  async execute(input: { wallet: string; limit: number; cursor?: string }): Promise<E.Either<InvalidCursor, GroupList>> {
    const after = input.cursor === undefined ? undefined : decodeFleetCursor('group', input.cursor);
    if (after === null) return E.left({ _tag: 'InvalidCursor' });
    const page = await this.store.listGroups(input.wallet, { limit: input.limit, withDeviceIds: true, ...(after !== undefined ? { afterName: after } : {}) });
    return E.right({ items: page.items, nextCursor: page.next === null ? null : encodeFleetCursor('group', page.next) });
  }
}
