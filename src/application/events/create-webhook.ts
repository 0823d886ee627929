import * as E from 'fp-ts/lib/Either.js';
import { MAX_ENDPOINTS_PER_WALLET, type WebhookEndpoint } from '../../domain/events/webhook.js';
import { normalizeDescription } from '../../domain/fleet/names.js';
import { encodeBase58 } from '../../domain/identity/base58.js';
import type { AddressPolicy } from '../ports/address-policy.js';
import type { Clock } from '../ports/clock.js';
import type { RandomSource } from '../ports/identity-crypto.js';
import type { WebhookStore } from '../ports/webhook-store.js';
import type { WebhookFailure } from './webhook-failures.js';
import { acceptableUrl, eventTypeFilter } from './webhook-input.js';
import { newSecret } from './webhook-secret.js';

export interface CreatedWebhook {
  readonly endpoint: WebhookEndpoint;
  /** The signing secret: in this answer only. */
  readonly secret: string;
}

/** Adds a webhook endpoint to the wallet, enabled, with a new signing secret. */
export class CreateWebhook {
  constructor(
    private readonly store: WebhookStore,
    private readonly policy: AddressPolicy,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  async execute(input: {
    wallet: string;
    url: string;
    eventTypes?: readonly string[] | null;
    description?: string | null;
  }): Promise<E.Either<WebhookFailure, CreatedWebhook>> {
    const url = acceptableUrl(input.url, this.policy);
    if (E.isLeft(url)) return url;
    const types = eventTypeFilter(input.eventTypes);
    if (E.isLeft(types)) return types;
    const description = normalizeDescription(input.description);
    if (E.isLeft(description)) return description;
    const now = this.clock.nowMs();
    const secret = newSecret(this.random);
    const endpoint: WebhookEndpoint = {
      endpointId: `whk_${encodeBase58(this.random.bytes(16))}`,
      wallet: input.wallet,
      url: url.right,
      description: description.right,
      eventTypes: types.right,
      enabled: true,
      disabledReason: null,
      secret,
      previousSecret: null,
      previousSecretUntilMs: null,
      createdAtMs: now,
      updatedAtMs: now,
      failingSinceMs: null,
      lastSuccessAtMs: null,
    };
    if (!(await this.store.create(endpoint, MAX_ENDPOINTS_PER_WALLET))) return E.left({ _tag: 'TooManyEndpoints', max: MAX_ENDPOINTS_PER_WALLET });
    return E.right({ endpoint, secret });
  }
}
