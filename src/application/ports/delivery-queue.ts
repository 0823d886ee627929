import type { StoredEvent } from '../../domain/events/event.js';
import type { WebhookEndpoint } from '../../domain/events/webhook.js';

export type DeliveryState = 'pending' | 'succeeded' | 'failed';

export interface Delivery {
  readonly deliveryId: number;
  readonly endpointId: string;
  readonly eventId: number;
  readonly eventType: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** When the next attempt is due; null once the delivery succeeded or failed for good. */
  readonly nextAttemptAtMs: number | null;
  readonly lastStatusCode: number | null;
  readonly lastError: string | null;
  readonly lastAttemptAtMs: number | null;
  readonly createdAtMs: number;
}

export interface DeliveryAttempt {
  readonly attempt: number;
  readonly atMs: number;
  /** Null when no response came (refused address, connection error, timeout). */
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
  readonly responseExcerpt: string;
  readonly trigger: 'scheduled' | 'manual';
}

/** A due delivery, claimed by one instance: with its endpoint and its event (null when retention took it). */
export interface ClaimedDelivery {
  readonly delivery: Delivery;
  readonly endpoint: WebhookEndpoint;
  readonly event: StoredEvent | null;
  /** The attempt was asked for by the owner (redelivery), not by the schedule. */
  readonly manual: boolean;
}

/** What an attempt came to, and what follows from it. */
export interface AttemptOutcome {
  readonly deliveryId: number;
  readonly endpointId: string;
  readonly attempt: DeliveryAttempt;
  /** pending with `nextAttemptAtMs`, or final. */
  readonly state: DeliveryState;
  readonly nextAttemptAtMs: number | null;
  /** The endpoint answered: its failing streak ends (true) or goes on (false). */
  readonly succeeded: boolean;
}

export interface DeliveryPage {
  /** Newest first. */
  readonly items: readonly Delivery[];
  readonly next: number | null;
}

/**
 * Webhook deliveries: one per event and endpoint, at least once. An instance claims due
 * deliveries for a while (`lockMs`); if it dies before recording the outcome, the claim runs
 * out and another instance (or the same one, restarted) tries again, with the same event id.
 */
export interface DeliveryQueue {
  /** How far the fan-out has read the events. */
  cursor(name: string): Promise<number>;
  /**
   * Adds the deliveries (one already there for the same endpoint and event is kept) and moves
   * the cursor from `from` to `to`, in one transaction; false, changing nothing, when the
   * cursor was not at `from` (another instance moved it).
   */
  enqueue(
    deliveries: readonly { endpointId: string; event: StoredEvent }[],
    cursor: { name: string; from: number; to: number },
    nowMs: number,
  ): Promise<boolean>;
  /**
   * Claims up to `limit` deliveries due at `nowMs` to enabled endpoints, at most `perEndpoint`
   * claimed at once per endpoint (so a slow receiver holds few of the senders), until `nowMs + lockMs`.
   */
  claim(nowMs: number, lockMs: number, limit: number, perEndpoint: number): Promise<readonly ClaimedDelivery[]>;
  /** Records attempts, their deliveries' new states, and each endpoint's failing streak. */
  record(outcomes: readonly AttemptOutcome[]): Promise<void>;
  list(
    wallet: string,
    endpointId: string,
    query: { readonly before?: number; readonly limit: number; readonly state?: DeliveryState },
  ): Promise<DeliveryPage | null>;
  get(wallet: string, endpointId: string, deliveryId: number): Promise<{ delivery: Delivery; attempts: readonly DeliveryAttempt[] } | null>;
  /** Makes the delivery due now again (the same event id), as the owner's redelivery. */
  redeliver(wallet: string, endpointId: string, deliveryId: number, nowMs: number): Promise<Delivery | null>;
  /** Deletes up to `max` deliveries (with their attempts) made before `beforeMs`. */
  prune(beforeMs: number, max: number): Promise<number>;
}
