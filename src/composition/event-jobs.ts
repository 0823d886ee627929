import type { Logger } from 'pino';
import type { AnnounceLoggedProofs } from '../application/events/announce-logged-proofs.js';
import type { DeliverWebhooks } from '../application/events/deliver-webhooks.js';
import type { DeliveryPacing } from '../application/events/delivery-pacing.js';
import type { EventHub } from '../application/events/event-hub.js';
import type { FanOutEvents } from '../application/events/fan-out-events.js';
import type { PruneEvents } from '../application/events/prune-events.js';
import type { SweepDeviceStatuses } from '../application/events/sweep-device-statuses.js';
import type { Clock } from '../application/ports/clock.js';
import type { JobLease } from '../application/ports/job-lease.js';

export interface EventJobParts {
  readonly lease: JobLease;
  /** This instance's name in the lease: the machine and data directory, so a restart takes its own lease back at once. */
  readonly holder: string;
  readonly fanOut: FanOutEvents;
  readonly announce: AnnounceLoggedProofs;
  readonly sweep: SweepDeviceStatuses;
  readonly prune: PruneEvents;
  readonly deliver: DeliverWebhooks;
  /** When to claim: deliveries give way to requests while the event loop is saturated. */
  readonly pacing: DeliveryPacing;
  readonly hub: EventHub;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly pollMs: number;
  readonly sweepMs: number;
  readonly pruneMs: number;
}

const LEASE = 'events';

/** A job run again `intervalMs` after each run ends (never two at once), until stopped. */
class Repeat {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly run: () => Promise<boolean | void>,
    private readonly intervalMs: number,
    private readonly failure: (err: unknown) => void,
  ) {}

  start(delayMs = 0): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      let again = false;
      this.running = this.run()
        .then((more) => void (again = more === true))
        .catch(this.failure)
        .finally(() => this.start(again ? 0 : this.intervalMs));
    }, delayMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }
}

/**
 * The events' background work on this instance:
 * - the one-at-a-time jobs, under a lease (any instance may hold it; another takes over when
 *   it stops renewing): the webhook fan-out, `proof.logged` announcements, the offline sweep
 *   and retention;
 * - sending due webhook deliveries, on every instance (claims keep two from sending one);
 * - following the events for this instance's open streams, while any is open.
 */
export class EventJobs {
  private readonly loops: Repeat[];
  private lastSweepMs = -Infinity;
  private lastPruneMs = -Infinity;

  constructor(private readonly p: EventJobParts) {
    const fail = (what: string) => (err: unknown) => p.logger.error({ err }, `${what} failed; will retry`);
    this.loops = [
      new Repeat(() => this.leaderWork(), p.pollMs, fail('event upkeep')),
      new Repeat(() => this.deliveries(), p.pollMs, fail('webhook delivery')),
      new Repeat(async () => void (p.hub.listening ? await p.hub.poll() : await p.hub.skipAhead()), p.pollMs, fail('following events for streams')),
    ];
  }

  start(): void {
    for (const loop of this.loops) loop.start();
  }

  async stop(): Promise<void> {
    await Promise.all(this.loops.map((loop) => loop.stop()));
    await this.p.deliver
      .drain()
      .catch((err: unknown) => this.p.logger.error({ err }, 'recording webhook attempts failed at stop; their claims run out and they are tried again'));
    await this.p.lease.release(LEASE, this.p.holder).catch(() => undefined);
  }

  /** The lease holder's round; true when there is more to do at once. */
  async leaderWork(): Promise<boolean> {
    const now = this.p.clock.nowMs();
    if (!(await this.p.lease.acquire(LEASE, this.p.holder, now, Math.max(10 * this.p.pollMs, 5_000)))) return false;
    await this.p.fanOut.execute();
    await this.p.announce.execute();
    if (now - this.lastSweepMs >= this.p.sweepMs) {
      this.lastSweepMs = now;
      const swept = await this.p.sweep.execute();
      if (swept.announced + swept.adopted > 0) this.p.logger.debug({ swept }, 'device statuses announced');
    }
    if (now - this.lastPruneMs >= this.p.pruneMs) {
      this.lastPruneMs = now;
      const pruned = await this.p.prune.execute();
      if (pruned.events + pruned.deliveries > 0) this.p.logger.info({ pruned }, 'events past their retention deleted');
    }
    return false;
  }

  /**
   * Starts what is due and records what finished. While attempts are in flight it goes on as
   * soon as half of them have finished, so a busy endpoint is fed without waiting for the next
   * poll; true then.
   */
  async deliveries(): Promise<boolean> {
    const started = this.p.pacing.mayClaim() ? await this.p.deliver.tick() : 0;
    await this.p.deliver.flush();
    const busy = this.p.deliver.busy;
    if (busy === 0) return started > 0;
    // Half of those in flight finished, or another poll's time at most: each claim is for
    // several, and what fell due meanwhile is not held up by a slow receiver.
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([this.p.deliver.whenFinished(Math.ceil(busy / 2)), new Promise((resolve) => (timer = setTimeout(resolve, this.p.pollMs)))]);
    clearTimeout(timer);
    await this.p.deliver.flush();
    return true;
  }
}
