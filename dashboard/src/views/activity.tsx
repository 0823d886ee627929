import { ViewHeader } from '../components/layout.js';
import { LinkStatus, useLive } from '../components/live.js';
import { Empty, ErrorNote, Link, Loading } from '../components/ui.js';
import { describeEvent, KINDS, type Kind, type Line } from '../event-lines.js';
import { fmtMoment, fmtNumber } from '../format.js';
import { KEEP, live } from '../live-events.js';
import { BASE, usePlace, withParams } from '../router.js';
import type { RegistryEvent } from '../types.js';

const FILTERS: ReadonlyArray<readonly [Kind | null, string]> = [
  [null, 'All'],
  ['proofs', 'Proofs'],
  ['refusals', 'Refusals'],
  ['devices', 'Devices'],
  ['keys', 'Keys'],
];

const TONES: Record<Line['tone'], string> = { good: 'accepted', bad: 'refused', warn: 'warning', info: 'note' };

function EventItem({ event }: { event: RegistryEvent }) {
  const line = describeEvent(event);
  return (
    <li class={`feed-item feed-${line.tone}`}>
      <time class="feed-time" dateTime={event.timestamp} title={event.timestamp}>
        {fmtMoment(event.timestamp)}
      </time>
      <span class="feed-mark" aria-hidden="true" />
      <span class="visually-hidden">{TONES[line.tone]}: </span>
      <div class="feed-text">
        <p class="feed-line">
          {line.parts.map((p, i) =>
            typeof p === 'string' ? (
              p
            ) : (
              <Link key={i} href={BASE + p.href} title={p.title} class="mono-link">
                {p.text}
              </Link>
            ),
          )}
        </p>
        {line.detail ? <p class="feed-detail">{line.detail}</p> : null}
      </div>
    </li>
  );
}

/**
 * The wallet's events as they happen, newest first: the recent history from GET /v1/events,
 * then the stream. Its own page rather than a card on the overview: the list grows, and only
 * the views that need the stream keep a connection open.
 */
export function ActivityPage() {
  const place = usePlace();
  const snap = useLive();
  const kindParam = place.params.get('kind');
  const kind = kindParam !== null && kindParam in KINDS ? (kindParam as Kind) : null;
  const wanted = kind ? (KINDS[kind] as readonly string[]) : null;
  const shown = wanted ? snap.events.filter((e) => wanted.includes(e.type)) : snap.events;
  const h = snap.history;
  return (
    <section>
      <ViewHeader
        title="Activity"
        lead={`Your wallet's events as they happen: proofs accepted and refused, devices changing status, API keys made and deleted. Newest first; the latest ${fmtNumber(KEEP)} are kept here.`}
      >
        <LinkStatus state={snap.state} detailed />
      </ViewHeader>
      <nav aria-label="Filter by kind" class="chips toolbar">
        {FILTERS.map(([k, label]) => (
          <Link key={label} href={withParams(place, { kind: k })} class="chip" aria-current={k === kind ? 'page' : undefined}>
            {label}
          </Link>
        ))}
      </nav>
      {h.kind === 'failed' ? <ErrorNote error={h.error} retry={() => live.retryHistory()} /> : null}
      {h.kind === 'loading' && snap.events.length === 0 ? (
        <Loading label="Loading recent events…" />
      ) : shown.length === 0 ? (
        <Empty title={snap.events.length === 0 ? 'No events yet' : 'No event of this kind yet'}>
          <p>Events appear here as they happen: a proof submitted with one of your API keys, a device going quiet, a key created.</p>
        </Empty>
      ) : (
        <ol class="feed panel" aria-label="Events, newest first">
          {shown.map((e) => (
            <EventItem key={e.id} event={e} />
          ))}
        </ol>
      )}
    </section>
  );
}
