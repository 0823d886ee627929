import * as E from 'fp-ts/lib/Either.js';
import type { WebhookEndpoint } from '../../domain/events/webhook.js';
import type { Clock } from '../ports/clock.js';
import type { RandomSource } from '../ports/identity-crypto.js';
import type { WebhookStore } from '../ports/webhook-store.js';
import type { InvalidWebhookField, WebhookNotFound } from './webhook-failures.js';
import { newSecret } from './webhook-secret.js';

/** How long the secret replaced by a rotation is still signed with, unless the owner says: a day. */
export const DEFAULT_OVERLAP_S = 86_400;
export const MAX_OVERLAP_S = 7 * 86_400;

/**
 * Gives the endpoint a new secret. Deliveries are signed with both the new and the old one
 * for `overlapS` (Standard Webhooks allows several signatures), so the receiver can switch
 * to the new secret at its own pace without refusing a delivery.
 */
export class RotateWebhookSecret {
  constructor(
    private readonly store: WebhookStore,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    wallet: string;
    endpointId: string;
    overlapS?: number;
  }): Promise<E.Either<WebhookNotFound | InvalidWebhookField, { endpoint: WebhookEndpoint; secret: string }>> {
    const overlapS = input.overlapS ?? DEFAULT_OVERLAP_S;
    if (!Number.isInteger(overlapS) || overlapS < 0 || overlapS > MAX_OVERLAP_S) {
      return E.left({
        _tag: 'InvalidWebhookField',
        field: 'overlap_s',
        detail: `overlap_s must be a whole number of seconds from 0 to ${MAX_OVERLAP_S} (7 days)`,
      });
    }
    const now = this.clock.nowMs();
    const secret = newSecret(this.random);
    const endpoint = await this.store.rotateSecret(input.wallet, input.endpointId, secret, now + overlapS * 1000, now);
    return endpoint ? E.right({ endpoint, secret }) : E.left({ _tag: 'WebhookNotFound', endpointId: input.endpointId });
  }
}
