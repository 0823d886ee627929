import { api, query } from '../api.js';
import { Chart } from '../components/chart.js';
import { ViewHeader } from '../components/layout.js';
import { FirstSteps } from '../components/first-steps.js';
import { LogCard } from '../components/log-panels.js';
import { ErrorNote, Link, Loading, Stat, StatusBadge } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtAgo, fmtCount, fmtNumber, fmtPercent } from '../format.js';
import { BASE, usePlace, withParams } from '../router.js';
import type { Session } from '../session.js';
import { STATUSES, type Series, type WalletStats } from '../types.js';

const RANGES = {
  '24h': { label: 'Last 24 hours', bucket: 'hour', days: 1 },
  '7d': { label: 'Last 7 days', bucket: 'day', days: 7 },
  '30d': { label: 'Last 30 days', bucket: 'day', days: 30 },
} as const;
type Range = keyof typeof RANGES;

const DAY = 86_400_000;

function seriesPath(wallet: string, range: Range): string {
  const r = RANGES[range];
  if (range === '24h') return `/v1/stats/wallet/${wallet}/series${query({ bucket: 'hour' })}`;
  const today = Math.floor(Date.now() / DAY) * DAY;
  return `/v1/stats/wallet/${wallet}/series${query({ bucket: r.bucket, from: new Date(today - (r.days - 1) * DAY).toISOString() })}`;
}

export function Overview({ session }: { session: Session }) {
  const place = usePlace();
  const range: Range = (place.params.get('range') as Range) in RANGES ? (place.params.get('range') as Range) : '24h';
  const stats = useData(() => api<WalletStats>('GET', `/v1/stats/wallet/${session.wallet}`), session.wallet, 30_000);
  const series = useData(() => api<Series>('GET', seriesPath(session.wallet, range)), `${session.wallet} ${range}`, 30_000);
  const s = stats.value;
  const hourly = range === '24h';
  const when = (ms: number) =>
    new Date(ms).toLocaleString(
      undefined,
      hourly ? { hour: '2-digit', minute: '2-digit', day: 'numeric', month: 'short' } : { day: 'numeric', month: 'short', year: 'numeric' },
    );
  const x = series.value?.points.map((p) => Date.parse(p.t)) ?? [];
  return (
    <section>
      <ViewHeader title="Overview" lead="Your wallet's proofs, devices and API keys at a glance." />
      <ErrorNote error={stats.error} retry={stats.reload} />
      {/* A wallet with nothing yet: what to do next, first. */}
      {s && s.proofs.total === 0 ? <FirstSteps /> : null}
      {s ? (
        <dl class="stats">
          <Stat
            label="Proofs, last 24 h"
            value={fmtNumber(s.proofs.last_24h)}
            hint={`${fmtNumber(s.proofs.last_7d)} in 7 days · ${fmtNumber(s.proofs.total)} in all`}
          />
          <Stat label="Devices" value={fmtNumber(s.devices.total)} hint={fmtCount(s.groups.total, 'group')} />
          <Stat
            label="Average score"
            value={s.score.average === null ? '—' : s.score.average.toFixed(3)}
            hint={
              s.score.sample_size === 1
                ? 'of the latest proof'
                : s.score.sample_size
                  ? `of the latest ${fmtCount(s.score.sample_size, 'proof')}`
                  : 'no proofs yet'
            }
          />
          <Stat
            label="API key requests"
            value={fmtNumber(s.api_keys.requests)}
            hint={`${fmtCount(s.api_keys.errors, 'error')} · ${fmtPercent(s.api_keys.error_rate)} error rate`}
          />
        </dl>
      ) : stats.loading ? (
        <Loading />
      ) : null}
      {s ? (
        <div class="panel">
          <h2>Devices by status</h2>
          <ul class="status-counts">
            {STATUSES.map((st) => (
              <li key={st}>
                <Link href={`${BASE}fleet?status=${st}`}>
                  <StatusBadge status={st} /> <span class="count">{fmtNumber(s.devices.by_status[st])}</span>
                </Link>
              </li>
            ))}
          </ul>
          <p class="muted">{s.proofs.last_at ? `Last proof created ${fmtAgo(s.proofs.last_at)}.` : 'No proofs yet: the first steps above send one.'}</p>
        </div>
      ) : null}
      <div class="panel">
        <div class="panel-header">
          <h2>Activity</h2>
          <nav aria-label="Time range" class="segmented">
            {(Object.keys(RANGES) as Range[]).map((r) => (
              <Link key={r} href={withParams(place, { range: r === '24h' ? null : r })} aria-current={r === range ? 'page' : undefined}>
                {RANGES[r].label}
              </Link>
            ))}
          </nav>
        </div>
        <ErrorNote error={series.error} retry={series.reload} />
        {series.value ? (
          <div class="charts">
            <Chart
              title={`Proofs per ${hourly ? 'hour' : 'day'}`}
              kind="bars"
              x={x}
              timeLabel={when}
              emptyText={`No proofs in the ${RANGES[range].label.toLowerCase()}.`}
              series={[{ label: 'Proofs', color: '--chart-1', values: series.value.points.map((p) => p.proofs) }]}
            />
            <Chart
              title={`Refused submissions per ${hourly ? 'hour' : 'day'}`}
              kind="bars"
              x={x}
              timeLabel={when}
              emptyText={`No refused submissions in the ${RANGES[range].label.toLowerCase()}.`}
              series={[{ label: 'Refused', color: '--chart-error', values: series.value.points.map((p) => p.invalid) }]}
            />
          </div>
        ) : series.loading ? (
          <Loading />
        ) : null}
      </div>
      <LogCard />
    </section>
  );
}
