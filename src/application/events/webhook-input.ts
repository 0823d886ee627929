import * as E from 'fp-ts/lib/Either.js';
import { EVENT_TYPES, isEventType, type EventType } from '../../domain/events/event.js';
import { checkWebhookUrl, type InvalidWebhookUrl } from '../../domain/events/webhook.js';
import type { AddressPolicy } from '../ports/address-policy.js';
import type { InvalidWebhookField } from './webhook-failures.js';

/** A URL of the right form whose host the policy allows, as the URL parser writes it. */
export function acceptableUrl(text: string, policy: AddressPolicy): E.Either<InvalidWebhookUrl, string> {
  const url = checkWebhookUrl(text);
  if (E.isLeft(url)) return url;
  const problem = policy.hostProblem(url.right.hostname);
  if (problem !== null) {
    return E.left({
      _tag: 'InvalidWebhookUrl',
      rule: 'private_address',
      detail: `url points at ${problem}; webhooks go to public addresses only (WEBHOOK_ALLOW_PRIVATE=1 allows others, for development)`,
    });
  }
  return E.right(url.right.href);
}

/** An event-type filter: null or absent for every type; otherwise known types, at least one. */
export function eventTypeFilter(types: readonly string[] | null | undefined): E.Either<InvalidWebhookField, readonly EventType[] | null> {
  if (types === null || types === undefined) return E.right(null);
  if (types.length === 0)
    return E.left({
      _tag: 'InvalidWebhookField',
      field: 'event_types',
      detail: 'event_types must name at least one type, or be left out (or null) for every type',
    });
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length > 0) {
    return E.left({
      _tag: 'InvalidWebhookField',
      field: 'event_types',
      detail: `unknown event type ${unknown.map((t) => JSON.stringify(t)).join(', ')}; the types are ${EVENT_TYPES.join(', ')}`,
    });
  }
  return E.right([...new Set(types as EventType[])]);
}
