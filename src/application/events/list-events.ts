import * as E from 'fp-ts/lib/Either.js';
import { eventId, parseEventId, type EventBody } from '../../domain/events/event.js';
import type { EventLog } from '../ports/event-log.js';
import { readEventQuery, type InvalidEventQuery } from './event-query.js';
import type { EventRenderer } from './render-event.js';

export interface EventList {
  readonly items: readonly EventBody[];
  /**
   * Oldest first: the last item's id, to pass as `after` (with no item, the place to poll
   * from). Newest first: the last item's id, to pass as `before`; null at the oldest kept.
   */
  readonly nextCursor: string | null;
  readonly hasMore: boolean;
}

export interface EventListInput {
  readonly wallet: string;
  readonly after?: string;
  readonly before?: string;
  readonly types?: string | readonly string[];
  readonly order?: 'asc' | 'desc';
  readonly limit: number;
}

/**
 * The wallet's events: oldest first after a cursor (the feed for clients that poll; without
 * `after`, from the oldest kept, EVENT_RETENTION_DAYS), or newest first before one (a page of
 * recent history, as an activity view opens with).
 */
export class ListEvents {
  constructor(
    private readonly log: EventLog,
    private readonly renderer: EventRenderer,
  ) {}

  async execute(input: EventListInput): Promise<E.Either<InvalidEventQuery, EventList>> {
    const query = readEventQuery(input.after, input.types);
    if (E.isLeft(query)) return query;
    let beforeId: number | undefined;
    if (input.before !== undefined) {
      const parsed = parseEventId(input.before);
      if (parsed === null)
        return E.left({ _tag: 'InvalidEventQuery', field: 'before', detail: 'before must be an event id this service issued (evt_ followed by 16 digits)' });
      beforeId = parsed;
    }
    const afterId = query.right.afterId ?? 0;
    const order = input.order ?? 'asc';
    // Read first: every event up to it is committed (ids follow commits), so a page read
    // after it holds all of this wallet's events up to it.
    const horizon = await this.log.lastId();
    const page = await this.log.walletEvents(input.wallet, afterId, {
      types: query.right.types,
      limit: input.limit,
      order,
      ...(beforeId !== undefined && { beforeId }),
    });
    const items = await Promise.all(page.items.map((e) => this.renderer.render(e)));
    const last = page.items[page.items.length - 1];
    if (order === 'desc') return E.right({ items, nextCursor: last && page.hasMore ? eventId(last.id) : null, hasMore: page.hasMore });
    // An empty page still tells where to poll from: nothing of this wallet's up to here was missed.
    const cursor = last ? last.id : Math.max(afterId, beforeId === undefined ? horizon : Math.min(horizon, beforeId - 1));
    return E.right({ items, nextCursor: cursor > 0 ? eventId(cursor) : null, hasMore: page.hasMore });
  }
}
