import * as E from 'fp-ts/lib/Either.js';
import type { GroupStore, GroupNotFound, GroupView } from '../ports/group-store.js';

/** One group with its device ids. */
export class GetGroup {
  constructor(private readonly store: GroupStore) {}

  async execute(input: { wallet: string; groupId: string }): Promise<E.Either<GroupNotFound, GroupView>> {
    const group = await this.store.getGroup(input.wallet, input.groupId);
    return group ? E.right(group) : E.left({ _tag: 'GroupNotFound', groupId: input.groupId });
  }
}
