import * as E from 'fp-ts/lib/Either.js';
import type { EventBody, StoredEvent } from '../../domain/events/event.js';
import type { EventLog } from '../ports/event-log.js';
import type { EventHub } from './event-hub.js';
import { readEventQuery, type InvalidEventQuery } from './event-query.js';
import type { EventRenderer } from './render-event.js';

/** Events held for a stream whose reader is slower than the wallet's events; past this it reads the log instead. */
const QUEUE_MAX = 2000;
const PAGE = 200;

/**
 * A wallet's events as they happen, for a stream: first those after the reader's last id
 * (`Last-Event-ID`, or `after`), read from the log, then each new one as the hub hands it out.
 * The hub is listened to before the log is read, so nothing committed in between is missed,
 * and ids already sent are skipped. A reader that falls behind is not buffered without end:
 * past QUEUE_MAX its queue is dropped and it reads the log again from its last id.
 */
export class FollowEvents {
  constructor(
    private readonly log: EventLog,
    private readonly hub: EventHub,
    private readonly renderer: EventRenderer,
  ) {}

  /** The events, in order, until `signal` aborts; a bad `after` or `types` is refused before anything is read. */
  open(input: { wallet: string; after?: string; types?: string | readonly string[]; signal: AbortSignal }): E.Either<InvalidEventQuery, AsyncIterable<EventBody>> {
    const query = readEventQuery(input.after, input.types);
    if (E.isLeft(query)) return query;
    const { afterId, types } = query.right;
    return E.right(this.follow(input.wallet, afterId, types, input.signal));
  }

  private async *follow(wallet: string, afterId: number | null, types: readonly string[] | null, signal: AbortSignal): AsyncGenerator<EventBody> {
    const queue: StoredEvent[] = [];
    let overflowed = false;
    let wake: (() => void) | null = null;
    const stop = this.hub.listen(wallet, (event) => {
      if (queue.length >= QUEUE_MAX) overflowed = true;
      else queue.push(event);
      wake?.();
    });
    const aborted = () => wake?.();
    signal.addEventListener('abort', aborted);
    try {
      let cursor = afterId ?? (await this.hub.position());
      let fromLog = afterId !== null;
      while (!signal.aborted) {
        if (fromLog || overflowed) {
          if (overflowed) [overflowed, queue.length] = [false, 0];
          const page = await this.log.walletEvents(wallet, cursor, { types: types as never, limit: PAGE });
          for (const event of page.items) {
            if (signal.aborted) return;
            yield await this.renderer.render(event);
            cursor = event.id;
          }
          fromLog = page.hasMore;
          continue;
        }
        const event = queue.shift();
        if (event) {
          if (event.id > cursor && (types === null || types.includes(event.type))) yield await this.renderer.render(event);
          cursor = Math.max(cursor, event.id);
          continue;
        }
        await new Promise<void>((resolve) => (wake = resolve));
        wake = null;
      }
    } finally {
      stop();
      signal.removeEventListener('abort', aborted);
    }
  }
}
