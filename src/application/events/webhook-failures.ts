import type { InvalidText } from '../../domain/fleet/names.js';
import type { InvalidWebhookUrl } from '../../domain/events/webhook.js';

export type InvalidWebhookField = { readonly _tag: 'InvalidWebhookField'; readonly field: string; readonly detail: string };
export type TooManyEndpoints = { readonly _tag: 'TooManyEndpoints'; readonly max: number };
export type WebhookNotFound = { readonly _tag: 'WebhookNotFound'; readonly endpointId: string };
export type DeliveryNotFound = { readonly _tag: 'DeliveryNotFound'; readonly deliveryId: string };
export type EndpointDisabled = { readonly _tag: 'EndpointDisabled'; readonly endpointId: string };

/** Every business failure of the webhook use cases. */
export type WebhookFailure = InvalidWebhookUrl | InvalidWebhookField | InvalidText | TooManyEndpoints | WebhookNotFound | DeliveryNotFound | EndpointDisabled;
