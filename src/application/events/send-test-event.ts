import * as E from 'fp-ts/lib/Either.js';
import { webhookTest } from '../../domain/events/announcements.js';
import type { Clock } from '../ports/clock.js';
import type { EventLog } from '../ports/event-log.js';
import type { WebhookStore } from '../ports/webhook-store.js';
import type { EndpointDisabled, WebhookNotFound } from './webhook-failures.js';

/**
 * Sends a `webhook.test` event to one endpoint, through the same queue, signing and retries
 * as every event: what a receiver's developer needs first. It is in no feed nor stream.
 */
export class SendTestEvent {
  constructor(
    private readonly store: WebhookStore,
    private readonly events: EventLog,
    private readonly clock: Clock,
  ) {}

  async execute(input: { wallet: string; endpointId: string }): Promise<E.Either<WebhookNotFound | EndpointDisabled, { queuedAtMs: number }>> {
    const endpoint = await this.store.get(input.wallet, input.endpointId);
    if (!endpoint) return E.left({ _tag: 'WebhookNotFound', endpointId: input.endpointId });
    if (!endpoint.enabled) return E.left({ _tag: 'EndpointDisabled', endpointId: input.endpointId });
    const now = this.clock.nowMs();
    await this.events.append([webhookTest(input.wallet, input.endpointId, now)]);
    return E.right({ queuedAtMs: now });
  }
}
