import * as E from 'fp-ts/lib/Either.js';
import type { WebhookEndpoint } from '../../domain/events/webhook.js';
import type { Delivery, DeliveryAttempt, DeliveryPage, DeliveryQueue, DeliveryState } from '../ports/delivery-queue.js';
import type { WebhookStore } from '../ports/webhook-store.js';
import type { DeliveryNotFound, WebhookNotFound } from './webhook-failures.js';

/** The wallet's endpoints, and one of them. */
export class ReadWebhooks {
  constructor(private readonly store: WebhookStore) {}

  list(wallet: string): Promise<readonly WebhookEndpoint[]> {
    return this.store.list(wallet);
  }

  async get(wallet: string, endpointId: string): Promise<E.Either<WebhookNotFound, WebhookEndpoint>> {
    const found = await this.store.get(wallet, endpointId);
    return found ? E.right(found) : E.left({ _tag: 'WebhookNotFound', endpointId });
  }

  async delete(wallet: string, endpointId: string): Promise<E.Either<WebhookNotFound, void>> {
    return (await this.store.delete(wallet, endpointId)) ? E.right(undefined) : E.left({ _tag: 'WebhookNotFound', endpointId });
  }
}

/** An endpoint's delivery log: each event sent to it, its attempts, and redelivery. */
export class WebhookDeliveries {
  constructor(private readonly queue: DeliveryQueue) {}

  async list(
    wallet: string,
    endpointId: string,
    query: { before?: number; limit: number; state?: DeliveryState },
  ): Promise<E.Either<WebhookNotFound, DeliveryPage>> {
    const page = await this.queue.list(wallet, endpointId, query);
    return page ? E.right(page) : E.left({ _tag: 'WebhookNotFound', endpointId });
  }

  async get(
    wallet: string,
    endpointId: string,
    deliveryId: number,
  ): Promise<E.Either<DeliveryNotFound, { delivery: Delivery; attempts: readonly DeliveryAttempt[] }>> {
    const found = await this.queue.get(wallet, endpointId, deliveryId);
    return found ? E.right(found) : E.left({ _tag: 'DeliveryNotFound', deliveryId: String(deliveryId) });
  }

  /** The same event again, with the same id (webhook-id), as soon as a sender is free; the log keeps every attempt. */
  async redeliver(wallet: string, endpointId: string, deliveryId: number, nowMs: number): Promise<E.Either<DeliveryNotFound, Delivery>> {
    const delivery = await this.queue.redeliver(wallet, endpointId, deliveryId, nowMs);
    return delivery ? E.right(delivery) : E.left({ _tag: 'DeliveryNotFound', deliveryId: String(deliveryId) });
  }
}
