import type { Logger } from 'pino';

/**
 * What must be stopped when the registry stops, in the reverse order of starting: the last
 * thing started (the server) stops first, the database last. A binding that starts a thread,
 * a timer or a connection says here how to stop it.
 */
export class Lifecycle {
  private readonly stops: Array<() => Promise<void>> = [];
  private readonly closingController = new AbortController();

  constructor(private readonly logger: Logger) {}

  /**
   * Aborted when the registry begins to stop, before the server waits for the requests in
   * flight: what never ends by itself (an event stream) ends then.
   */
  get closing(): AbortSignal {
    return this.closingController.signal;
  }

  beginClosing(): void {
    this.closingController.abort();
  }

  onStop(stop: () => Promise<void>): void {
    this.stops.push(stop);
  }

  /**
   * Runs `flush` every `intervalMs` (the timer never keeps the process alive) and once more
   * on stop: for counts kept in memory and written in batches. A failed flush is logged as
   * `failure`; what it did not write is written by the next one.
   */
  flushEvery(intervalMs: number, flush: () => Promise<unknown>, failure: string): void {
    const run = () =>
      flush().then(
        () => undefined,
        (err: unknown) => this.logger.error({ err }, failure),
      );
    const timer = setInterval(run, intervalMs);
    timer.unref();
    this.onStop(async () => {
      clearInterval(timer);
      await run();
    });
  }

  /** Stops everything started so far; a failing stop is logged and the others still run. */
  async stop(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) await stop().catch((err: unknown) => this.logger.error({ err }, 'close failed'));
  }
}
