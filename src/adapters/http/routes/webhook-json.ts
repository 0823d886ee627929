import type { Delivery, DeliveryAttempt } from '../../../application/ports/delivery-queue.js';
import { eventId } from '../../../domain/events/event.js';
import type { WebhookEndpoint } from '../../../domain/events/webhook.js';
import { toRfc3339 } from '../../../domain/protocol/datetime.js';
import { HttpError } from '../http-error.js';

const time = (ms: number | null): string | null => (ms === null ? null : toRfc3339(ms));

/** An endpoint as the API shows it: never its secrets. */
export const endpointJson = (e: WebhookEndpoint) => ({
  endpoint_id: e.endpointId,
  url: e.url,
  description: e.description,
  event_types: e.eventTypes === null ? null : [...e.eventTypes],
  enabled: e.enabled,
  disabled_reason: e.disabledReason,
  created_at: toRfc3339(e.createdAtMs),
  updated_at: toRfc3339(e.updatedAtMs),
  failing_since: time(e.failingSinceMs),
  last_success_at: time(e.lastSuccessAtMs),
  previous_secret_expires_at: e.previousSecret === null ? null : time(e.previousSecretUntilMs),
});

export const deliveryJson = (d: Delivery) => ({
  delivery_id: String(d.deliveryId),
  event_id: eventId(d.eventId),
  event_type: d.eventType,
  state: d.state,
  attempts: d.attempts,
  next_attempt_at: time(d.nextAttemptAtMs),
  last_status_code: d.lastStatusCode,
  last_error: d.lastError,
  last_attempt_at: time(d.lastAttemptAtMs),
  created_at: toRfc3339(d.createdAtMs),
});

export const attemptJson = (a: DeliveryAttempt) => ({
  attempt: a.attempt,
  at: toRfc3339(a.atMs),
  status_code: a.statusCode,
  latency_ms: a.latencyMs,
  error: a.error,
  response_excerpt: a.responseExcerpt,
  trigger: a.trigger,
});

/** A delivery id (path or cursor): decimal digits; anything else names no delivery. */
export function deliveryIdOf(text: string): number {
  const n = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) throw new HttpError(404, `delivery ${text} not found for this endpoint`, { code: 'not_found' });
  return n;
}

/** A delivery-log cursor: the next_cursor of a page this service gave. */
export function deliveryCursorOf(text: string): number {
  const n = /^[1-9][0-9]{0,15}$/.test(text) ? Number(text) : NaN;
  if (!Number.isSafeInteger(n)) throw new HttpError(422, 'cursor is not one this service issued', { code: 'invalid_cursor' });
  return n;
}
