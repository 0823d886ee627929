import type { InvalidEventQuery } from '../../../application/events/event-query.js';
import type { WebhookFailure } from '../../../application/events/webhook-failures.js';
import { describeInvalidText } from '../../../domain/fleet/names.js';
import { HttpError } from '../http-error.js';
import { errorResponses } from './error-responses.js';

/** Every business failure of the events use cases (feed, stream, webhooks). */
export type EventsFailure = InvalidEventQuery | WebhookFailure;

/** Each failure to its status, in one switch. */
export function eventProblem(f: EventsFailure): HttpError {
  switch (f._tag) {
    case 'InvalidEventQuery':
      return new HttpError(422, `${f.field}: ${f.detail}`, { code: 'validation_error', path: f.field });
    case 'InvalidWebhookUrl':
      return new HttpError(422, f.detail, { code: 'invalid_url', rule: f.rule, path: 'url' });
    case 'InvalidWebhookField':
      return new HttpError(422, f.detail, { code: 'validation_error', path: f.field });
    case 'InvalidText':
      return new HttpError(422, describeInvalidText(f), { code: 'validation_error', path: f.field });
    case 'TooManyEndpoints':
      return new HttpError(422, `a wallet can have at most ${f.max} webhook endpoints; delete one first`, { code: 'too_many_endpoints', max: f.max });
    case 'WebhookNotFound':
      return new HttpError(404, `webhook endpoint ${f.endpointId} not found`, { code: 'not_found' });
    case 'DeliveryNotFound':
      return new HttpError(404, `delivery ${f.deliveryId} not found for this endpoint`, { code: 'not_found' });
    case 'EndpointDisabled':
      return new HttpError(409, `webhook endpoint ${f.endpointId} is disabled; enable it first (PATCH with {"enabled": true})`, { code: 'endpoint_disabled' });
  }
}

/** What each error status means for the events routes. */
export const eventErrors = errorResponses({
  404: 'No such webhook endpoint (or delivery) for this wallet.',
  409: 'The endpoint is disabled.',
  422: 'Validation failed; detail names the member or rule (a refused URL, an unknown event type, more than 20 endpoints).',
});
