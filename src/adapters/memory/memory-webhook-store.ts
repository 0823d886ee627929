import type { EndpointChanges, WebhookStore } from '../../application/ports/webhook-store.js';
import type { WebhookEndpoint } from '../../domain/events/webhook.js';

const copy = (e: WebhookEndpoint): WebhookEndpoint => ({ ...e, eventTypes: e.eventTypes === null ? null : [...e.eventTypes] });

const oldestFirst = (a: WebhookEndpoint, b: WebhookEndpoint): number =>
  a.createdAtMs - b.createdAtMs || (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0);

/**
 * In-memory WebhookStore for tests and embedding; runs the same contract suite as the SQL
 * store. The memory delivery queue reads endpoints here and hears of deletes (`onDelete`), as
 * the SQL queue joins the table and loses an endpoint's rows by cascade.
 */
export class MemoryWebhookStore implements WebhookStore {
  private readonly endpoints = new Map<string, WebhookEndpoint>();
  private readonly deleteListeners: Array<(endpointId: string) => void> = [];

  /** Called with each deleted endpoint's id, before `delete` resolves. */
  onDelete(listener: (endpointId: string) => void): void {
    this.deleteListeners.push(listener);
  }

  /** Any wallet's endpoint: for the delivery queue, which works across wallets. */
  find(endpointId: string): WebhookEndpoint | null {
    const found = this.endpoints.get(endpointId);
    return found ? copy(found) : null;
  }

  /** An attempt's effect on the endpoint's failing streak, as the SQL queue's `record` has it. */
  noteAttempt(endpointId: string, succeeded: boolean, atMs: number): void {
    const e = this.endpoints.get(endpointId);
    if (!e) return;
    this.endpoints.set(endpointId, succeeded ? { ...e, failingSinceMs: null, lastSuccessAtMs: atMs } : { ...e, failingSinceMs: e.failingSinceMs ?? atMs });
  }

  async create(endpoint: WebhookEndpoint, max: number): Promise<boolean> {
    if (this.endpoints.has(endpoint.endpointId)) throw new Error('duplicate webhook endpoint id');
    if ([...this.endpoints.values()].filter((e) => e.wallet === endpoint.wallet).length >= max) return false;
    this.endpoints.set(endpoint.endpointId, copy(endpoint));
    return true;
  }

  async list(wallet: string): Promise<readonly WebhookEndpoint[]> {
    return [...this.endpoints.values()]
      .filter((e) => e.wallet === wallet)
      .sort(oldestFirst)
      .map(copy);
  }

  async get(wallet: string, endpointId: string): Promise<WebhookEndpoint | null> {
    const e = this.owned(wallet, endpointId);
    return e ? copy(e) : null;
  }

  async update(wallet: string, endpointId: string, changes: EndpointChanges, atMs: number): Promise<WebhookEndpoint | null> {
    const e = this.owned(wallet, endpointId);
    if (!e) return null;
    const switched = changes.enabled === undefined ? {} : { enabled: changes.enabled, disabledReason: null, ...(changes.enabled && { failingSinceMs: null }) };
    return this.put({
      ...e,
      ...(changes.url !== undefined && { url: changes.url }),
      ...(changes.description !== undefined && { description: changes.description }),
      ...(changes.eventTypes !== undefined && { eventTypes: changes.eventTypes === null ? null : [...changes.eventTypes] }),
      ...switched,
      updatedAtMs: atMs,
    });
  }

  async rotateSecret(wallet: string, endpointId: string, secret: string, previousUntilMs: number, atMs: number): Promise<WebhookEndpoint | null> {
    const e = this.owned(wallet, endpointId);
    if (!e) return null;
    return this.put({ ...e, previousSecret: e.secret, previousSecretUntilMs: previousUntilMs, secret, updatedAtMs: atMs });
  }

  async delete(wallet: string, endpointId: string): Promise<boolean> {
    if (!this.owned(wallet, endpointId)) return false;
    this.endpoints.delete(endpointId);
    for (const listener of this.deleteListeners) listener(endpointId);
    return true;
  }

  async enabledEndpoints(): Promise<readonly WebhookEndpoint[]> {
    return [...this.endpoints.values()]
      .filter((e) => e.enabled)
      .sort(oldestFirst)
      .map(copy);
  }

  async disable(endpointId: string, reason: string, atMs: number): Promise<void> {
    const e = this.endpoints.get(endpointId);
    if (e?.enabled) this.endpoints.set(endpointId, { ...e, enabled: false, disabledReason: reason, updatedAtMs: atMs });
  }

  private owned(wallet: string, endpointId: string): WebhookEndpoint | undefined {
    const e = this.endpoints.get(endpointId);
    return e?.wallet === wallet ? e : undefined;
  }

  private put(e: WebhookEndpoint): WebhookEndpoint {
    this.endpoints.set(e.endpointId, e);
    return copy(e);
  }
}
