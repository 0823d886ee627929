import * as E from 'fp-ts/lib/Either.js';
import type { NothingToChange } from './fleet-errors.js';

/** For each member an edit may hold, the check that turns what was sent into what is stored. */
export type ChangeChecks<Edit, Changes, F> = {
  readonly [K in keyof Edit & keyof Changes]-?: (value: Exclude<Edit[K], undefined>) => E.Either<F, Changes[K]>;
};

/**
 * The changes an edit asks for: each member given, checked in the order `checks` names them
 * (the first failure is the answer); members not given stay as they are. An edit that gives
 * none is NothingToChange.
 */
export function changesOf<Edit extends object, Changes extends object, F>(
  edit: Edit,
  checks: ChangeChecks<Edit, Changes, F>,
): E.Either<F | NothingToChange, Changes> {
  const keys = Object.keys(checks) as Array<keyof Edit & keyof Changes>;
  if (keys.every((key) => edit[key] === undefined)) return E.left({ _tag: 'NothingToChange' });
  let changes = {} as Changes;
  for (const key of keys) {
    const value = edit[key];
    if (value === undefined) continue;
    const checked = checks[key](value as Exclude<Edit[typeof key], undefined>);
    if (E.isLeft(checked)) return checked;
    changes = { ...changes, [key]: checked.right };
  }
  return E.right(changes);
}
