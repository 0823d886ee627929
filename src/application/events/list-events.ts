import * as E from 'fp-ts/lib/Either.js';
import { eventId, type EventBody } from '../../domain/events/event.js';
import type { EventLog } from '../ports/event-log.js';
import { readEventQuery, type InvalidEventQuery } from './event-query.js';
import type { EventRenderer } from './render-event.js';

export interface EventList {
  readonly items: readonly EventBody[];
  /** The last item's id: pass it as `after` for the next page (or, with no item, the place to poll from). */
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
}

/**
 * The wallet's events after a cursor, oldest first: the feed for clients that poll. Without
 * `after` it starts at the beginning of what is kept (EVENT_RETENTION_DAYS).
 */
export class ListEvents {
  constructor(
    private readonly log: EventLog,
    private readonly renderer: EventRenderer,
  ) {}

  async execute(input: { wallet: string; after?: string; types?: string | readonly string[]; limit: number }): Promise<E.Either<InvalidEventQuery, EventList>> {
    const query = readEventQuery(input.after, input.types);
    if (E.isLeft(query)) return query;
    const afterId = query.right.afterId ?? 0;
    // Read first: every event up to it is committed (ids follow commits), so a page read
    // after it holds all of this wallet's events up to it.
    const horizon = await this.log.lastId();
    const page = await this.log.walletEvents(input.wallet, afterId, { types: query.right.types, limit: input.limit });
    const items = await Promise.all(page.items.map((e) => this.renderer.render(e)));
    const last = page.items[page.items.length - 1];
    // An empty page still tells where to poll from: nothing of this wallet's up to here was missed.
    const cursor = last ? last.id : Math.max(afterId, horizon);
    return E.right({ items, nextCursor: cursor > 0 ? eventId(cursor) : null, hasMore: page.hasMore });
  }
}
