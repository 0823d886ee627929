import * as E from 'fp-ts/lib/Either.js';
import { MAX_GROUPS_PER_WALLET, type Group } from '../../domain/fleet/group.js';
import { normalizeDescription, normalizeName, type InvalidText } from '../../domain/fleet/names.js';
import type { Clock } from '../ports/clock.js';
import type { GroupStore, GroupLimitReached, GroupNameTaken } from '../ports/group-store.js';
import { checkColor } from './update-group.js';

/** Creates an empty group; its name is unique within the wallet. */
export class CreateGroup {
  constructor(
    private readonly store: GroupStore,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    wallet: string;
    name: string;
    description?: string | null;
    color?: string | null;
  }): Promise<E.Either<InvalidText | GroupNameTaken | GroupLimitReached, Group>> {
    const name = normalizeName(input.name);
    if (E.isLeft(name)) return name;
    const description = normalizeDescription(input.description);
    if (E.isLeft(description)) return description;
    const color = checkColor(input.color);
    if (E.isLeft(color)) return color;
    return this.store.createGroup(
      input.wallet,
      { name: name.right, description: description.right, createdAtMs: this.clock.nowMs(), color: color.right },
      MAX_GROUPS_PER_WALLET,
    );
  }
}
