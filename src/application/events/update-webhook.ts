import * as E from 'fp-ts/lib/Either.js';
import type { WebhookEndpoint } from '../../domain/events/webhook.js';
import { normalizeDescription } from '../../domain/fleet/names.js';
import type { AddressPolicy } from '../ports/address-policy.js';
import type { Clock } from '../ports/clock.js';
import type { EndpointChanges, WebhookStore } from '../ports/webhook-store.js';
import type { WebhookFailure } from './webhook-failures.js';
import { acceptableUrl, eventTypeFilter } from './webhook-input.js';

export interface WebhookEdit {
  readonly url?: string;
  readonly eventTypes?: readonly string[] | null;
  readonly description?: string | null;
  readonly enabled?: boolean;
}

/** Changes an endpoint: its URL (under the same rules as at creation), filter, description, or whether it is on. */
export class UpdateWebhook {
  constructor(
    private readonly store: WebhookStore,
    private readonly policy: AddressPolicy,
    private readonly clock: Clock,
  ) {}

  async execute(input: { wallet: string; endpointId: string; edit: WebhookEdit }): Promise<E.Either<WebhookFailure, WebhookEndpoint>> {
    const { edit } = input;
    const changes: { -readonly [K in keyof EndpointChanges]: EndpointChanges[K] } = {};
    if (edit.url !== undefined) {
      const url = acceptableUrl(edit.url, this.policy);
      if (E.isLeft(url)) return url;
      changes.url = url.right;
    }
    if (edit.eventTypes !== undefined) {
      const types = eventTypeFilter(edit.eventTypes);
      if (E.isLeft(types)) return types;
      changes.eventTypes = types.right;
    }
    if (edit.description !== undefined) {
      const description = normalizeDescription(edit.description);
      if (E.isLeft(description)) return description;
      changes.description = description.right;
    }
    if (edit.enabled !== undefined) changes.enabled = edit.enabled;
    const updated = await this.store.update(input.wallet, input.endpointId, changes, this.clock.nowMs());
    return updated ? E.right(updated) : E.left({ _tag: 'WebhookNotFound', endpointId: input.endpointId });
  }
}
