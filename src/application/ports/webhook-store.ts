import type { EventType } from '../../domain/events/event.js';
import type { WebhookEndpoint } from '../../domain/events/webhook.js';

/** What an endpoint edit changes: each member given is set, the others stay. */
export interface EndpointChanges {
  readonly url?: string;
  readonly description?: string | null;
  readonly eventTypes?: readonly EventType[] | null;
  /** Turning an endpoint on clears why it was off, and its failing streak. */
  readonly enabled?: boolean;
}

/**
 * A wallet's webhook endpoints. Every call but `enabledEndpoints` and `disable` is scoped to
 * one wallet: another wallet's endpoint does not exist for the caller.
 */
export interface WebhookStore {
  /** Stores a new endpoint unless the wallet has `max` already (false then, nothing stored). */
  create(endpoint: WebhookEndpoint, max: number): Promise<boolean>;
  /** Oldest first. */
  list(wallet: string): Promise<readonly WebhookEndpoint[]>;
  get(wallet: string, endpointId: string): Promise<WebhookEndpoint | null>;
  update(wallet: string, endpointId: string, changes: EndpointChanges, atMs: number): Promise<WebhookEndpoint | null>;
  /** Makes `secret` the current one; the one it replaces is still signed with until `previousUntilMs`. */
  rotateSecret(wallet: string, endpointId: string, secret: string, previousUntilMs: number, atMs: number): Promise<WebhookEndpoint | null>;
  /** Deletes the endpoint with its deliveries and their log. */
  delete(wallet: string, endpointId: string): Promise<boolean>;
  /** Every wallet's enabled endpoints: what the fan-out matches events against. */
  enabledEndpoints(): Promise<readonly WebhookEndpoint[]>;
  /** Turns an endpoint off on the registry's own account (410 Gone, failing for days), saying why. */
  disable(endpointId: string, reason: string, atMs: number): Promise<void>;
}
