import * as E from 'fp-ts/lib/Either.js';
import { eventId, type EventBody, type StoredEvent } from '../../domain/events/event.js';
import type { EventLog } from '../ports/event-log.js';
import type { EventHub } from './event-hub.js';
import { readEventQuery, type InvalidEventQuery } from './event-query.js';
import type { EventRenderer } from './render-event.js';

/** Events held for a stream whose reader is slower than the wallet's events; past this it reads the log instead. */
const QUEUE_MAX = 2000;
const PAGE = 200;

export interface FollowedEvents {
  readonly startId: string;
  readonly events: AsyncIterable<EventBody>;
}

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

  /**
   * The events, in order, until `signal` aborts; a bad `after` or `types` is refused before
   * anything is read. `startId`: where the stream starts (the last id before its first event),
   * for a client that came without one to resume from should it lose the connection at once.
   */
  async open(input: {
    wallet: string;
    after?: string;
    types?: string | readonly string[];
    signal: AbortSignal;
  }): Promise<E.Either<InvalidEventQuery, FollowedEvents>> {
    const query = readEventQuery(input.after, input.types);
    if (E.isLeft(query)) return query;
    const { afterId, types } = query.right;
    // The hub's position is known before listening: every event after it reaches the queue.
    await this.hub.position();
    const queue: StoredEvent[] = [];
    const state = { overflowed: false, wake: null as (() => void) | null };
    const stop = this.hub.listen(input.wallet, (event) => {
      if (queue.length >= QUEUE_MAX) state.overflowed = true;
      else queue.push(event);
      state.wake?.();
    });
    // Listened to first: whatever is committed after this read reaches the queue.
    let startId: number;
    try {
      startId = afterId ?? (await this.log.lastId());
    } catch (err) {
      stop();
      throw err;
    }
    return E.right({ startId: eventId(startId), events: this.follow(input.wallet, startId, afterId !== null, types, input.signal, queue, state, stop) });
  }

  private async *follow(
    wallet: string,
    startId: number,
    fromLogFirst: boolean,
    types: readonly string[] | null,
    signal: AbortSignal,
    queue: StoredEvent[],
    state: { overflowed: boolean; wake: (() => void) | null },
    stop: () => void,
  ): AsyncGenerator<EventBody> {
    const aborted = () => state.wake?.();
    signal.addEventListener('abort', aborted);
    try {
      let cursor = startId;
      let fromLog = fromLogFirst;
      while (!signal.aborted) {
        if (fromLog || state.overflowed) {
          if (state.overflowed) [state.overflowed, queue.length] = [false, 0];
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
        await new Promise<void>((resolve) => (state.wake = resolve));
        state.wake = null;
      }
    } finally {
      stop();
      signal.removeEventListener('abort', aborted);
    }
  }
}
