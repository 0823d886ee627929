import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, query } from '../api.js';
import { Empty, ErrorNote, Link, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtAgo, fmtDate, fmtMoment, fmtNumber } from '../format.js';
import { navigate, usePlace, withParams } from '../router.js';
import type { Delivery, DeliveryDetail, DeliveryState } from '../types.js';

const STATES: ReadonlyArray<readonly [DeliveryState | null, string]> = [
  [null, 'All'],
  ['pending', 'Pending'],
  ['succeeded', 'Succeeded'],
  ['failed', 'Failed'],
];

/**
 * Deliveries change without an event to say so (an attempt, a retry): the log is re-read every
 * 2 s while one is due within the minute or an action was just taken, else every 30 s.
 */
const FAST_MS = 2_000;
const SLOW_MS = 30_000;
const soon = (d: Delivery, nowMs: number) => d.state === 'pending' && (d.next_attempt_at === null || Date.parse(d.next_attempt_at) - nowMs < 60_000);

export function DeliveryBadge({ state }: { state: DeliveryState }) {
  return <span class={`badge badge-delivery-${state}`}>{state}</span>;
}

const outcome = (code: number | null, error: string | null) => (code !== null ? String(code) : (error ?? '—'));

/** An endpoint's delivery log, newest first, and the attempts of the delivery chosen (`?delivery=`). */
export function DeliveryLog({
  endpointId,
  watchUntil,
  onWatch,
  onActivity,
}: {
  endpointId: string;
  watchUntil: number;
  onWatch: () => void;
  onActivity: () => void;
}) {
  const place = usePlace();
  const stateParam = place.params.get('state');
  const state = STATES.some(([s]) => s === stateParam) ? (stateParam as DeliveryState) : null;
  const selected = place.params.get('delivery');
  const [cursor, setCursor] = useState<string | null>(null);
  const [poll, setPoll] = useState(FAST_MS);
  const log = useData(
    () =>
      api<{ items: Delivery[]; next_cursor: string | null }>(
        'GET',
        `/v1/webhooks/${encodeURIComponent(endpointId)}/deliveries${query({ limit: 20, state, cursor })}`,
      ),
    `${endpointId} ${state} ${cursor}`,
    poll,
  );
  useEffect(() => {
    const now = Date.now();
    setPoll(now < watchUntil || (log.value?.items ?? []).some((d) => soon(d, now)) ? FAST_MS : SLOW_MS);
  }, [log.value, watchUntil]);
  useEffect(() => setCursor(null), [endpointId, state]);
  // An attempt made since the last read changes the endpoint's own status (last success, failing since).
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!log.value) return;
    const now = log.value.items.map((d) => `${d.delivery_id}:${d.state}:${d.attempts}`).join();
    if (seen.current !== null && seen.current !== now) onActivity();
    seen.current = now;
  }, [log.value]);
  const items = log.value?.items ?? [];
  return (
    <div class="panel flush" aria-labelledby="deliveries-heading">
      <div class="panel-header pad">
        <h2 id="deliveries-heading">Delivery log</h2>
        <nav aria-label="Filter deliveries by state" class="chips">
          {STATES.map(([s, label]) => (
            <Link key={label} href={withParams(place, { state: s, delivery: null })} class="chip" aria-current={s === state ? 'page' : undefined}>
              {label}
            </Link>
          ))}
        </nav>
      </div>
      <ErrorNote error={log.error} retry={log.reload} />
      {log.value ? (
        items.length === 0 ? (
          <div class="pad">
            <Empty title={state ? `No ${state} deliveries` : 'No deliveries yet'}>
              <p>Each event this endpoint takes becomes a delivery here. “Send test event” makes one now.</p>
            </Empty>
          </div>
        ) : (
          <div class="table-wrap">
            <table>
              <caption class="visually-hidden">Deliveries to this endpoint, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Created</th>
                  <th scope="col">State</th>
                  <th scope="col">Event</th>
                  <th scope="col" class="num">
                    Attempts
                  </th>
                  <th scope="col">Last status</th>
                  <th scope="col">Last attempt</th>
                </tr>
              </thead>
              <tbody>
                {items.map((d) => (
                  <tr key={d.delivery_id} aria-selected={d.delivery_id === selected ? 'true' : undefined}>
                    <th scope="row">
                      <Link href={withParams(place, { delivery: d.delivery_id })} title={`Delivery ${d.delivery_id}, created ${d.created_at}: its attempts`}>
                        {fmtMoment(d.created_at)}
                      </Link>
                    </th>
                    <td>
                      <DeliveryBadge state={d.state} />
                      {d.state === 'pending' && d.next_attempt_at ? <span class="sub">next {fmtMoment(d.next_attempt_at)}</span> : null}
                    </td>
                    <td class="mono">{d.event_type}</td>
                    <td class="num">{fmtNumber(d.attempts)}</td>
                    <td class="clip" title={d.last_error ?? undefined}>
                      {outcome(d.last_status_code, d.last_error)}
                    </td>
                    <td title={d.last_attempt_at ?? ''}>{fmtAgo(d.last_attempt_at)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : log.loading ? (
        <div class="pad">
          <Loading />
        </div>
      ) : null}
      {log.value?.next_cursor ? (
        <p class="pad">
          <button type="button" class="button small" onClick={() => setCursor(log.value?.next_cursor ?? null)}>
            Older deliveries
          </button>
        </p>
      ) : null}
      {selected ? <DeliveryAttempts endpointId={endpointId} deliveryId={selected} poll={poll} onRedelivered={() => (onWatch(), log.reload())} /> : null}
    </div>
  );
}

function DeliveryAttempts(p: { endpointId: string; deliveryId: string; poll: number; onRedelivered: () => void }) {
  const place = usePlace();
  const path = `/v1/webhooks/${encodeURIComponent(p.endpointId)}/deliveries/${encodeURIComponent(p.deliveryId)}`;
  const detail = useData(() => api<DeliveryDetail>('GET', path), path, p.poll);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const [said, setSaid] = useState('');
  const d = detail.value;
  const redeliver = async () => {
    setBusy(true);
    setError(null);
    try {
      await api('POST', `${path}/redeliver`);
      setSaid('Sent again: the next attempt is due now, with the same webhook-id.');
      p.onRedelivered();
      detail.reload();
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  if (detail.error instanceof ApiError && detail.error.status === 404) {
    return (
      <section class="attempts-panel" aria-labelledby="attempts-heading">
        <h3 id="attempts-heading">Delivery {p.deliveryId}</h3>
        <p>This endpoint has no such delivery (deliveries are kept as long as their events).</p>
        <button type="button" class="button small" onClick={() => navigate(withParams(place, { delivery: null }), { replace: true })}>
          Close
        </button>
      </section>
    );
  }
  return (
    <section class="attempts-panel" aria-labelledby="attempts-heading">
      <div class="panel-header">
        <h3 id="attempts-heading">
          Delivery {p.deliveryId}: <span class="mono">{d?.event_type ?? '…'}</span>
        </h3>
        <div class="view-actions">
          <button type="button" class="button small primary" disabled={busy || !d} onClick={redeliver}>
            {busy ? 'Sending…' : 'Redeliver'}
          </button>
          <Link href={withParams(place, { delivery: null })} class="button small">
            Close
          </Link>
        </div>
      </div>
      <p role="status" class="muted">
        {said}
      </p>
      <ErrorNote error={error ?? detail.error} />
      {!d ? (
        detail.loading ? (
          <Loading />
        ) : null
      ) : (
        <>
          <dl class="facts">
            <dt>State</dt>
            <dd>
              <DeliveryBadge state={d.state} />
              {d.state === 'pending' && d.next_attempt_at ? ` next attempt ${fmtDate(d.next_attempt_at)}` : ''}
            </dd>
            <dt>Event id</dt>
            <dd class="mono">{d.event_id}</dd>
            <dt>Created</dt>
            <dd>{fmtDate(d.created_at)}</dd>
          </dl>
          {d.attempts_log.length === 0 ? (
            <p class="muted">No attempt yet: the first is due {d.next_attempt_at ? fmtDate(d.next_attempt_at) : 'now'}.</p>
          ) : (
            <ol class="attempts" aria-label="Attempts, oldest first">
              {d.attempts_log.map((a) => (
                <li key={a.attempt} class={a.status_code !== null && a.status_code < 300 ? 'attempt-ok' : 'attempt-bad'}>
                  <p class="attempt-head">
                    <strong>Attempt {a.attempt}</strong> · {a.trigger === 'manual' ? 'redelivered' : 'scheduled'} ·{' '}
                    <time dateTime={a.at} title={a.at}>
                      {fmtMoment(a.at)}
                    </time>
                  </p>
                  <dl class="facts">
                    <dt>Status code</dt>
                    <dd data-testid="attempt-status">{a.status_code ?? 'no answer'}</dd>
                    <dt>Latency</dt>
                    <dd>{fmtNumber(a.latency_ms)} ms</dd>
                    {a.error ? (
                      <>
                        <dt>Error</dt>
                        <dd>{a.error}</dd>
                      </>
                    ) : null}
                    <dt>Response</dt>
                    <dd>{a.response_excerpt === '' ? <span class="muted">(empty)</span> : <pre class="excerpt">{a.response_excerpt}</pre>}</dd>
                  </dl>
                </li>
              ))}
            </ol>
          )}
        </>
      )}
    </section>
  );
}
