import { HttpError } from './http-error.js';

/**
 * A counting semaphore with a bounded queue: at most `slots` holders at once, at most `queue`
 * waiting; past that a request is refused at once (503 with Retry-After) rather than queued
 * without bound, since each waiting request still holds a connection. Large bodies take one
 * (json-body.ts); the heavy reads have slots of their own that wallets share in turns (read-slots.ts).
 */
export class BodySlots {
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  /** `what`: what the slots are for, as the 503 names it ("… are being read at once"). */
  constructor(
    readonly slots: number,
    readonly queue: number,
    private readonly what = 'large or compressed request bodies',
  ) {}

  /** Holders now and requests waiting: for tests and metrics. */
  get inUse(): number {
    return this.held;
  }

  get queued(): number {
    return this.waiting.length;
  }

  async acquire(): Promise<() => void> {
    if (this.held < this.slots) {
      this.held++;
      return this.releaser();
    }
    if (this.waiting.length >= this.queue) {
      throw new HttpError(
        503,
        `too many ${this.what} are being read at once (${this.slots} at a time, ${this.queue} waiting); retry shortly`,
        { code: 'busy' },
        { 'Retry-After': '1' },
      );
    }
    // The slot is handed over by the releaser, so `held` does not drop and rise in between.
    await new Promise<void>((resolve) => this.waiting.push(resolve));
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      if (next) next();
      else this.held--;
    };
  }
}
