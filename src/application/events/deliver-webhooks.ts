import { eventId } from '../../domain/events/event.js';
import { failingTooLong, retryDelayMs, signingSecrets, verdictOf } from '../../domain/events/webhook.js';
import { toRfc3339 } from '../../domain/protocol/datetime.js';
import type { Clock } from '../ports/clock.js';
import type { AttemptOutcome, ClaimedDelivery, DeliveryQueue } from '../ports/delivery-queue.js';
import type { WebhookSigner } from '../ports/webhook-signer.js';
import type { WebhookStore } from '../ports/webhook-store.js';
import type { WebhookResponse, WebhookTransport } from '../ports/webhook-transport.js';
import type { EventRenderer } from './render-event.js';

export interface DeliverySettings {
  /** Attempts in flight at once on this instance. */
  readonly concurrency: number;
  /** Of those, at most this many to one endpoint: a slow receiver holds few senders. */
  readonly perEndpoint: number;
  /** How long a claim lasts: longer than an attempt's deadline, so only a dead instance's claims run out. */
  readonly lockMs: number;
  /** An endpoint failing for this long is turned off (WEBHOOK_DISABLE_AFTER_S). */
  readonly disableAfterMs: number;
}

/** What a sent attempt came to, for metrics. */
export type AttemptReport = { readonly verdict: 'succeeded' | 'retry' | 'gone' | 'failed'; readonly latencyMs: number; readonly eventAtMs: number | null };

/**
 * Sends due deliveries: claims as many as it has free senders, signs each event as Standard
 * Webhooks says (`webhook-id` is the event id, the same on every retry), posts it, and
 * records how it went: success; a retry on the schedule (retryDelayMs); or the end, when
 * attempts run out or the receiver answers 410 Gone. An endpoint that answers 410, or has
 * failed for WEBHOOK_DISABLE_AFTER_S, is turned off with the reason. Outcomes are recorded in
 * batches (`flush`), not one write per attempt.
 */
export class DeliverWebhooks {
  private inFlight = 0;
  private pending: AttemptOutcome[] = [];
  private disables: Array<{ endpointId: string; reason: string; atMs: number }> = [];
  private idle: Array<() => void> = [];
  /** Attempts finished so far, and who waits for a count of them. */
  private finished = 0;
  private finishWaiters: Array<{ readonly at: number; readonly resolve: () => void }> = [];

  constructor(
    private readonly queue: DeliveryQueue,
    private readonly endpoints: WebhookStore,
    private readonly transport: WebhookTransport,
    private readonly signer: WebhookSigner,
    private readonly renderer: EventRenderer,
    private readonly clock: Clock,
    private readonly jitter: () => number,
    private readonly settings: DeliverySettings,
    private readonly report: (r: AttemptReport) => void = () => undefined,
  ) {}

  get busy(): number {
    return this.inFlight;
  }

  /** Claims due deliveries for the free senders and starts them; how many it started. */
  async tick(): Promise<number> {
    const free = this.settings.concurrency - this.inFlight;
    if (free <= 0) return 0;
    const claimed = await this.queue.claim(this.clock.nowMs(), this.settings.lockMs, free, this.settings.perEndpoint);
    for (const c of claimed) this.start(c);
    return claimed.length;
  }

  /** Records the outcomes so far, and turns off the endpoints that must be. */
  async flush(): Promise<void> {
    const [outcomes, disables] = [this.pending, this.disables];
    [this.pending, this.disables] = [[], []];
    try {
      if (outcomes.length > 0) await this.queue.record(outcomes);
      for (const d of disables) await this.endpoints.disable(d.endpointId, d.reason, d.atMs);
    } catch (err) {
      // Kept for the next flush; if this instance dies first, the claims run out and the attempts are made again.
      this.pending.unshift(...outcomes);
      this.disables.unshift(...disables);
      throw err;
    }
  }

  /**
   * Resolves once `count` more attempts have finished (at once for 0), or as soon as none is in
   * flight. A claim finds more to send only once something has finished: a sender or an
   * endpoint's room came free. Claiming before that is a write transaction that finds nothing;
   * after each attempt, one a delivery; after half of those in flight, one for several.
   */
  whenFinished(count: number): Promise<void> {
    if (count <= 0 || this.inFlight === 0) return Promise.resolve();
    return new Promise<void>((resolve) => this.finishWaiters.push({ at: this.finished + count, resolve }));
  }

  /** Waits for the attempts in flight, then records them (on stop). */
  async drain(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
    await this.flush();
  }

  private start(claimed: ClaimedDelivery): void {
    this.inFlight++;
    void this.attempt(claimed)
      .then((outcome) => this.pending.push(outcome))
      .finally(() => {
        this.inFlight--;
        this.finished++;
        this.finishWaiters = this.finishWaiters.filter((w) => (w.at <= this.finished || this.inFlight === 0 ? (w.resolve(), false) : true));
        if (this.inFlight === 0) for (const resolve of this.idle.splice(0)) resolve();
      });
  }

  private async attempt({ delivery, endpoint, event, manual }: ClaimedDelivery): Promise<AttemptOutcome> {
    const atMs = this.clock.nowMs();
    const attempt = delivery.attempts + 1;
    let response: WebhookResponse;
    if (event === null) {
      response = { statusCode: null, latencyMs: 0, error: 'the event is no longer kept (EVENT_RETENTION_DAYS)', bodyExcerpt: '' };
    } else {
      try {
        const body = JSON.stringify(await this.renderer.render(event));
        const id = eventId(event.id);
        const timestampS = Math.floor(atMs / 1000);
        const headers = {
          'webhook-id': id,
          'webhook-timestamp': String(timestampS),
          'webhook-signature': this.signer.header(signingSecrets(endpoint, atMs), id, timestampS, body),
        };
        response = await this.transport.post({ url: endpoint.url, headers, body });
      } catch (err) {
        response = { statusCode: null, latencyMs: 0, error: `not sent: ${err instanceof Error ? err.message : String(err)}`, bodyExcerpt: '' };
      }
    }
    const verdict = event === null ? 'gone' : verdictOf(response.statusCode);
    const delay = verdict === 'retry' ? retryDelayMs(attempt, this.jitter()) : null;
    const state = verdict === 'succeeded' ? 'succeeded' : delay === null ? 'failed' : 'pending';
    if (event !== null && verdict === 'gone') {
      this.disables.push({
        endpointId: endpoint.endpointId,
        reason: `the endpoint answered 410 Gone on ${toRfc3339(atMs)}: it asked for no more deliveries`,
        atMs,
      });
    } else if (verdict === 'retry' && failingTooLong(endpoint.failingSinceMs ?? atMs, atMs, this.settings.disableAfterMs)) {
      this.disables.push({
        endpointId: endpoint.endpointId,
        reason: `failing since ${toRfc3339(endpoint.failingSinceMs!)}; last error: ${response.error ?? `answered ${String(response.statusCode)}`}`,
        atMs,
      });
    }
    this.report({ verdict: state === 'failed' && verdict === 'retry' ? 'failed' : verdict, latencyMs: response.latencyMs, eventAtMs: event?.atMs ?? null });
    return {
      deliveryId: delivery.deliveryId,
      endpointId: endpoint.endpointId,
      attempt: {
        attempt,
        atMs,
        statusCode: response.statusCode,
        latencyMs: Math.round(response.latencyMs),
        error: response.error,
        responseExcerpt: response.bodyExcerpt,
        trigger: manual ? 'manual' : 'scheduled',
      },
      state,
      nextAttemptAtMs: state === 'pending' ? atMs + delay! : null,
      succeeded: verdict === 'succeeded',
    };
  }
}
