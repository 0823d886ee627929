import * as E from 'fp-ts/lib/Either.js';
import { normalizeColor } from '../../domain/fleet/group.js';
import { normalizeDescription, normalizeName, type InvalidText } from '../../domain/fleet/names.js';
import type { GroupChanges, GroupNameTaken, GroupNotFound, GroupStore, GroupView } from '../ports/group-store.js';
import { changesOf } from './edit-changes.js';
import type { NothingToChange } from './fleet-errors.js';

export interface GroupEdit {
  readonly name?: string;
  /** Empty or null clears it. */
  readonly description?: string | null;
  /** "#rgb" or "#rrggbb"; null clears it. */
  readonly color?: string | null;
}

/** Checks a colour: "#rgb" or "#rrggbb" (kept as "#rrggbb", lower case), or null. */
export function checkColor(color: string | null | undefined): E.Either<InvalidText, string | null> {
  if (color === null || color === undefined) return E.right(null);
  const normalized = normalizeColor(color);
  return normalized === null ? E.left({ _tag: 'InvalidText', field: 'color', problem: 'not_a_color', max: 7 }) : E.right(normalized);
}

/** Renames a group, or changes its description or colour. Names stay unique within the wallet. */
export class UpdateGroup {
  constructor(private readonly store: GroupStore) {}

  async execute(input: {
    wallet: string;
    groupId: string;
    edit: GroupEdit;
  }): Promise<E.Either<InvalidText | NothingToChange | GroupNotFound | GroupNameTaken, GroupView>> {
    const changes = changesOf<GroupEdit, GroupChanges, InvalidText>(input.edit, { name: normalizeName, description: normalizeDescription, color: checkColor });
    if (E.isLeft(changes)) return changes;
    return this.store.updateGroup(input.wallet, input.groupId, changes.right);
  }
}
