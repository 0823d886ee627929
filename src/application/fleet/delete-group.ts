import * as E from 'fp-ts/lib/Either.js';
import type { GroupStore, GroupNotFound } from '../ports/group-store.js';

/** Deletes a group: its devices become ungrouped; devices, proofs and health stay. */
export class DeleteGroup {
  constructor(private readonly store: GroupStore) {}

  async execute(input: { wallet: string; groupId: string }): Promise<E.Either<GroupNotFound, { readonly groupId: string; readonly unassigned: number }>> {
    const deleted = await this.store.deleteGroup(input.wallet, input.groupId);
    return deleted ? E.right({ groupId: input.groupId, unassigned: deleted.unassigned }) : E.left({ _tag: 'GroupNotFound', groupId: input.groupId });
  }
}
