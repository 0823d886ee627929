import { HttpError } from './http-error.js';

export interface ReadBounds {
  /** Heavy reads answered at once. */
  readonly slots: number;
  /** Heavy reads that may wait, all wallets together; past it 503 `busy`. */
  readonly queue: number;
  /** Heavy reads one wallet may have waiting; past it 429 `rate_limited` for that wallet only. */
  readonly queuePerWallet: number;
}

export const DEFAULT_READ_BOUNDS: ReadBounds = { slots: 1, queue: 64, queuePerWallet: 8 };

/**
 * A counting semaphore with bounded queues, shared fairly between wallets. Large or compressed
 * bodies are read in one (json-body.ts; one queue for all), the heavy reads (lists, searches,
 * statistics) run in another (app.ts), with these rules:
 * a freed slot goes to the next wallet in turn, not to the oldest request, so a wallet that
 * keeps many reads waiting delays its own, not everyone's. One wallet may keep at most
 * `queuePerWallet` waiting (429 past it: it is that wallet's rate that is too high) and all
 * wallets together at most `queue` (503: the instance is busy), since each waiting request
 * still holds a connection.
 */
export class Slots {
  private held = 0;
  private waitingCount = 0;
  /** Waiting requests by wallet; a Map keeps the wallets in the order they began waiting. */
  private readonly waiting = new Map<string, (() => void)[]>();

  /** `what`: what the slots are for, as the refusals name it ("… are being read at once"). */
  constructor(
    readonly bounds: ReadBounds,
    private readonly what = 'lists, searches and statistics',
  ) {}

  get inUse(): number {
    return this.held;
  }

  get queued(): number {
    return this.waitingCount;
  }

  /**
   * `wallet`: whose turn the request waits in; one key for all where turns do not matter.
   * `admitted`: for a request already answering (a streamed export's next page), which waits
   * its turn however many wait: it cannot be refused with a status any more.
   */
  async acquire(wallet = '', { admitted = false } = {}): Promise<() => void> {
    if (this.held < this.bounds.slots && this.waitingCount === 0) {
      this.held++;
      return this.releaser();
    }
    if (!admitted && this.waitingCount >= this.bounds.queue) {
      throw new HttpError(
        503,
        `too many ${this.what} are being read at once (${this.bounds.slots} at a time, ${this.bounds.queue} waiting); retry shortly`,
        { code: 'busy' },
        { 'Retry-After': '1' },
      );
    }
    const mine = this.waiting.get(wallet) ?? [];
    if (!admitted && mine.length >= this.bounds.queuePerWallet) {
      throw new HttpError(
        429,
        `too many of this wallet's ${this.what} are waiting (${this.bounds.queuePerWallet} at most); retry shortly`,
        { code: 'rate_limited' },
        { 'Retry-After': '1' },
      );
    }
    // The slot is handed over by the releaser, so `held` does not drop and rise in between.
    await new Promise<void>((resolve) => {
      mine.push(resolve);
      this.waiting.set(wallet, mine);
      this.waitingCount++;
    });
    return this.releaser();
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.nextInTurn();
      if (next) next();
      else this.held--;
    };
  }

  /** The oldest waiting request of the wallet whose turn it is; that wallet goes to the back. */
  private nextInTurn(): (() => void) | undefined {
    const first = this.waiting.entries().next();
    if (first.done) return undefined;
    const [wallet, queue] = first.value;
    const next = queue.shift();
    this.waiting.delete(wallet);
    if (queue.length > 0) this.waiting.set(wallet, queue);
    this.waitingCount--;
    return next;
  }
}

/**
 * A streamed answer's pages, each read in a slot of its own taken in the wallet's turn and
 * given back before the page is sent: a long export reads no more at once than any other heavy
 * read, and its client's pace holds no slot.
 */
export async function* readInSlots<T>(pages: AsyncIterable<T>, acquire: () => Promise<() => void>): AsyncGenerator<T, void> {
  const iterator = pages[Symbol.asyncIterator]();
  for (;;) {
    const release = await acquire();
    let step: IteratorResult<T>;
    try {
      step = await iterator.next();
    } finally {
      release();
    }
    if (step.done) return;
    yield step.value;
  }
}
