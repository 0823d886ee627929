import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { BarChart, type Bar } from '../components/bar-chart.js';
import { Chart } from '../components/chart.js';
import { Heatmap } from '../components/heatmap.js';
import { ViewHeader } from '../components/layout.js';
import { ErrorNote, Link, Loading, Stat } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { download } from '../download.js';
import { fmtCount, fmtNumber } from '../format.js';
import { navigate, usePlace, withParams, type Place } from '../router.js';
import type { Session } from '../session.js';
import type { ProofBreakdown, StatisticsReport } from '../types.js';

const RANGES = { '24h': 'Last 24 hours', '7d': 'Last 7 days', '30d': 'Last 30 days', '90d': 'Last 90 days' } as const;
type Range = keyof typeof RANGES;
const DAY = 86_400_000;
const isDate = (s: string | null): s is string => s !== null && /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(`${s}T00:00:00Z`));

/** The window the URL names: a named range, or two UTC dates, the second included. */
function windowOf(place: Place): { range: Range } | { from: string; to: string } {
  const from = place.params.get('from');
  const to = place.params.get('to');
  if (isDate(from) && isDate(to)) return { from, to };
  const range = place.params.get('range') as Range;
  return { range: range in RANGES ? range : '7d' };
}

function reportQuery(w: ReturnType<typeof windowOf>, extra: Record<string, string> = {}): string {
  if ('range' in w) return query({ range: w.range, ...extra });
  const end = new Date(Date.parse(`${w.to}T00:00:00Z`) + DAY).toISOString();
  return query({ from: `${w.from}T00:00:00Z`, to: end, ...extra });
}

const barsOf = (b: ProofBreakdown): Bar[] => [...b.entries.map((e) => ({ label: e.id, value: e.proofs })), { label: 'Other', value: b.other, rest: true }];

function CustomRange({ place, current }: { place: Place; current: { from: string; to: string } | null }) {
  const today = new Date().toISOString().slice(0, 10);
  const [from, setFrom] = useState(current?.from ?? new Date(Date.now() - 13 * DAY).toISOString().slice(0, 10));
  const [to, setTo] = useState(current?.to ?? today);
  return (
    <form
      class="range-form"
      onSubmit={(e) => {
        e.preventDefault();
        navigate(withParams(place, { range: null, from, to }));
      }}
    >
      <label>
        From <input type="date" value={from} required onInput={(e) => setFrom(e.currentTarget.value)} />
      </label>
      <label>
        To (included) <input type="date" value={to} required onInput={(e) => setTo(e.currentTarget.value)} />
      </label>
      <button type="submit" class="button small">
        Show
      </button>
    </form>
  );
}

export function StatisticsPage({ session }: { session: Session }) {
  const place = usePlace();
  const w = windowOf(place);
  const key = `${session.wallet} ${reportQuery(w)}`;
  const path = (extra: Record<string, string> = {}) => `/v1/stats/wallet/${session.wallet}/report${reportQuery(w, extra)}`;
  const report = useData(() => api<StatisticsReport>('GET', path()), key, 60_000);
  const [saveError, setSaveError] = useState<Error | null>(null);
  const r = report.value;
  const hourly = r?.bucket === 'hour';
  const when = (ms: number) =>
    new Date(ms).toLocaleString(
      undefined,
      hourly
        ? { hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short', timeZone: 'UTC' }
        : { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' },
    );
  const x = r?.series.map((p) => Date.parse(p.t)) ?? [];
  const span = r ? `${when(Date.parse(r.from))} – ${when(Date.parse(r.to) - (hourly ? 3_600_000 : DAY))} (UTC)` : '';
  const save = (format: 'csv' | 'json') => () => {
    setSaveError(null);
    download(path({ format }), `statistics.${format}`).catch(setSaveError);
  };
  return (
    <section>
      <ViewHeader title="Statistics" lead="Your proofs, refused submissions and API requests over a range, counted from what is stored. Times are UTC.">
        <button type="button" class="button small" onClick={save('csv')} disabled={!r}>
          Download CSV
        </button>
        <button type="button" class="button small" onClick={save('json')} disabled={!r}>
          Download JSON
        </button>
      </ViewHeader>
      <ErrorNote error={saveError} />
      <div class="panel range-panel">
        <nav aria-label="Time range" class="segmented">
          {(Object.keys(RANGES) as Range[]).map((name) => (
            <Link
              key={name}
              href={withParams(place, { range: name === '7d' ? null : name, from: null, to: null })}
              aria-current={'range' in w && w.range === name ? 'page' : undefined}
            >
              {RANGES[name]}
            </Link>
          ))}
        </nav>
        <CustomRange place={place} current={'from' in w ? w : null} key={'from' in w ? `${w.from} ${w.to}` : 'none'} />
      </div>
      <ErrorNote error={report.error} retry={report.reload} />
      {r ? (
        <>
          <p class="muted" data-testid="stats-window">
            {'range' in w ? RANGES[w.range] : 'Custom range'}: {span}, by {r.bucket}.
          </p>
          <dl class="stats">
            <Stat label="Proofs" value={<span data-testid="stat-proofs">{fmtNumber(r.proofs)}</span>} />
            <Stat label="Refused submissions" value={<span data-testid="stat-refused">{fmtNumber(r.refused)}</span>} />
            <Stat
              label="API key requests"
              value={<span data-testid="stat-requests">{fmtNumber(r.requests.requests)}</span>}
              hint={`${fmtCount(r.requests.errors, 'error')} · whole UTC days`}
            />
          </dl>
          <div class="panel">
            <h2>Over time</h2>
            <div class="charts stats-over-time">
              <Chart
                title={`Proofs per ${r.bucket}`}
                kind="bars"
                utc
                x={x}
                timeLabel={when}
                emptyText="No proofs in this range."
                series={[{ label: 'Proofs', color: '--chart-1', values: r.series.map((p) => p.proofs) }]}
              />
              <Chart
                title={`Refused submissions per ${r.bucket}`}
                kind="bars"
                utc
                x={x}
                timeLabel={when}
                emptyText="No refused submissions in this range."
                series={[{ label: 'Refused', color: '--chart-error', values: r.series.map((p) => p.refused) }]}
              />
            </div>
          </div>
          <div class="panel stats-pair">
            <BarChart
              title="Proofs by robot"
              labelHeader="Robot"
              valueHeader="Proofs"
              bars={barsOf(r.robots)}
              total={r.robots.total}
              empty="No proofs in this range."
            />
            <BarChart
              title="Proofs by task"
              labelHeader="Task"
              valueHeader="Proofs"
              bars={barsOf(r.tasks)}
              total={r.tasks.total}
              empty="No proofs in this range."
            />
          </div>
          <div class="panel">
            <Heatmap title="Proofs by day of the week and hour (UTC)" counts={r.weekday_hours} />
          </div>
          <div class="panel">
            <BarChart
              title="API requests per endpoint, all your keys"
              labelHeader="Endpoint"
              valueHeader="Requests"
              errorsHeader="Errors"
              bars={r.requests.endpoints.map((e) => ({ label: e.endpoint, value: e.requests, errors: e.errors }))}
              total={r.requests.requests}
              empty="No API key requests in this range."
              footer={
                <p class="muted small">
                  Counted by whole UTC days, {r.requests.from.slice(0, 10)} to {new Date(Date.parse(r.requests.to) - DAY).toISOString().slice(0, 10)}; errors
                  (status 400 or above) are the striped end of each bar.
                </p>
              }
            />
          </div>
        </>
      ) : report.loading ? (
        <Loading />
      ) : null}
    </section>
  );
}
