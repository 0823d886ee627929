import * as E from 'fp-ts/lib/Either.js';
import { EVENT_TYPES, isEventType, parseEventId, type EventType } from '../../domain/events/event.js';

export type InvalidEventQuery = { readonly _tag: 'InvalidEventQuery'; readonly field: string; readonly detail: string };

/** Where a reader starts, and what it wants: read from `after` and `types` as clients send them. */
export interface EventQuery {
  readonly afterId: number | null;
  readonly types: readonly EventType[] | null;
}

const invalid = (field: string, detail: string): E.Either<InvalidEventQuery, never> => E.left({ _tag: 'InvalidEventQuery', field, detail });

/** `after`: an event id this service issued; `types`: event types, comma-separated or repeated, each one that exists. */
export function readEventQuery(after: string | undefined, types: string | readonly string[] | undefined): E.Either<InvalidEventQuery, EventQuery> {
  let afterId: number | null = null;
  if (after !== undefined && after !== '') {
    afterId = parseEventId(after);
    if (afterId === null) return invalid('after', 'after must be an event id this service issued (evt_ followed by 16 digits)');
  }
  const listed = (typeof types === 'string' ? [types] : (types ?? []))
    .flatMap((t) => t.split(','))
    .map((t) => t.trim())
    .filter((t) => t !== '');
  const unknown = listed.filter((t) => !isEventType(t));
  if (unknown.length > 0)
    return invalid('types', `unknown event type ${unknown.map((t) => JSON.stringify(t)).join(', ')}; the types are ${EVENT_TYPES.join(', ')}`);
  return E.right({ afterId, types: listed.length > 0 ? [...new Set(listed as EventType[])] : null });
}
