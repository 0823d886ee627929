import { PassThrough } from 'node:stream';
import type { FollowEvents } from '../../../application/events/follow-events.js';
import type { ListEvents } from '../../../application/events/list-events.js';
import type { EventBody } from '../../../domain/events/event.js';
import * as c from '../codecs/event.codecs.js';
import { orProblem } from '../http-error.js';
import type { WebhookDoc } from '../openapi/openapi-document.js';
import { route, type AnyRoute } from '../route.js';
import { AUTHED } from './error-responses.js';
import { eventErrors as errors, eventProblem } from './event-problems.js';

export interface EventRouteDeps {
  readonly list: ListEvents;
  readonly follow: FollowEvents;
  /** Aborted when the registry begins to stop: every stream ends cleanly, before the server waits for open requests. */
  readonly closing: AbortSignal;
  /** A comment line this often keeps proxies and clients from taking a quiet stream for a dead one. */
  readonly heartbeatMs: number;
}

export function eventRoutes(d: EventRouteDeps): AnyRoute[] {
  return [
    route({
      method: 'get',
      path: '/v1/events',
      operationId: 'listEvents',
      tag: 'events',
      summary: "The wallet's events: oldest first after a cursor, or newest first",
      description:
        "For clients that poll (order=asc, the default): pass the previous page's next_cursor as `after` to go on; with no new event, next_cursor still tells where to poll from next. For recent history (order=desc): newest first, the next page with `before` = next_cursor. Events are kept EVENT_RETENTION_DAYS (30 by default). Takes an API key or a dashboard token; a wallet sees only its own events.",
      auth: 'api_key',
      scope: 'events:read',
      heavyRead: true,
      query: c.EventListQuery,
      responses: { 200: { description: 'A page of events.', body: c.EventListResponse }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ principal, query }) => {
        const { after, before, order, types } = query;
        const input = {
          wallet: principal.wallet,
          limit: query.limit ?? 50,
          ...(after !== undefined && { after }),
          ...(before !== undefined && { before }),
          ...(order !== undefined && { order }),
          ...(types !== undefined && { types }),
        };
        const page = orProblem(await d.list.execute(input), eventProblem);
        return { status: 200, body: { items: page.items, next_cursor: page.nextCursor, has_more: page.hasMore } };
      },
    }),
    route({
      method: 'get',
      path: '/v1/events/stream',
      operationId: 'streamEvents',
      tag: 'events',
      summary: "The wallet's events as they happen (server-sent events)",
      description:
        'A text/event-stream: each event as `id: <event id>` and `data: <the event as JSON>` (the webhook body). Reconnect with the Last-Event-ID header (EventSource does) or `after` to resume: every event after it is sent first, then new ones, with nothing missed. A comment line every 15 s keeps the connection alive; the stream ends when the service stops. Takes an API key or a dashboard token.',
      auth: 'api_key',
      scope: 'events:read',
      query: c.EventStreamQuery,
      responses: { 200: { description: 'The stream.', mediaType: 'text/event-stream' }, ...errors(400, 422, ...AUTHED) },
      handle: async ({ principal, query, ctx }) => {
        const controller = new AbortController();
        const lastEventId = ctx.get('Last-Event-ID');
        const after = lastEventId !== '' ? lastEventId : query.after;
        const { startId, events } = orProblem(
          await d.follow.open({
            wallet: principal.wallet,
            ...(after !== undefined && { after }),
            ...(query.types !== undefined && { types: query.types }),
            signal: controller.signal,
          }),
          eventProblem,
        );
        const stop = () => controller.abort();
        ctx.req.once('close', stop);
        ctx.res.once('close', stop);
        if (d.closing.aborted) stop();
        else d.closing.addEventListener('abort', stop, { once: true });
        controller.signal.addEventListener('abort', () => d.closing.removeEventListener('abort', stop), { once: true });
        // A stream is quiet for long stretches: no idle timeout of the socket may end it.
        ctx.req.socket.setTimeout(0);
        ctx.req.socket.setNoDelay(true);
        const out = new PassThrough();
        void pump(startId, events, out, controller.signal, d.heartbeatMs);
        return {
          status: 200,
          body: out,
          headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', 'X-Accel-Buffering': 'no' },
        };
      },
    }),
  ];
}

/** Writes each event as a server-sent event, waits when the client reads slower, and ends the stream when told to stop. */
async function pump(startId: string, events: AsyncIterable<EventBody>, out: PassThrough, signal: AbortSignal, heartbeatMs: number): Promise<void> {
  const heartbeat = setInterval(() => out.write(': keep-alive\n\n'), heartbeatMs);
  heartbeat.unref();
  try {
    // An id with no data: a resume point for a client that came without one (no event is dispatched).
    out.write(`retry: 3000\nid: ${startId}\n\n`);
    for await (const event of events) {
      if (!out.write(`id: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`)) {
        await new Promise<void>((resolve) => {
          const done = () => {
            out.off('drain', done);
            signal.removeEventListener('abort', done);
            resolve();
          };
          out.once('drain', done);
          signal.addEventListener('abort', done, { once: true });
        });
      }
      if (signal.aborted) break;
    }
  } catch {
    // The database went away mid-stream: the client reconnects with its Last-Event-ID.
    out.write(': stream interrupted; reconnect with Last-Event-ID to resume\n\n');
  } finally {
    clearInterval(heartbeat);
    out.end();
  }
}

/** The delivery a webhook endpoint receives, for the OpenAPI document's `webhooks`. */
export const EVENT_WEBHOOK: WebhookDoc = {
  name: 'event',
  summary: 'An event, delivered to a webhook endpoint (Standard Webhooks v1)',
  description:
    'POSTed to each enabled endpoint whose event types include it. Verify webhook-signature over the raw body before parsing it; deduplicate on webhook-id (the same on every retry); refuse a webhook-timestamp more than 5 minutes from your clock. Any 2xx within 15 s is a success; anything else is retried over about three days; 410 Gone turns the endpoint off.',
  body: c.EventBody,
  headers: {
    'webhook-id': 'The event id (evt_…): the same on every retry of this event.',
    'webhook-timestamp': 'When this attempt was signed, in whole seconds since the epoch.',
    'webhook-signature':
      'Space-separated v1,<base64 HMAC-SHA256 of "<webhook-id>.<webhook-timestamp>.<body>"> keyed with the base64-decoded secret after whsec_; two during a secret rotation.',
  },
  responses: { '2XX': 'Received.', '410': 'Gone: no more deliveries; the endpoint is turned off.' },
};
