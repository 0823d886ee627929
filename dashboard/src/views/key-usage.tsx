import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { Chart } from '../components/chart.js';
import { ErrorNote, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { download } from '../download.js';
import { fmtCount, fmtNumber, fmtPercent } from '../format.js';
import type { ApiKey, KeyUsage } from '../types.js';

const DAYS = 30;

type Endpoints = KeyUsage['endpoints'];

/**
 * Requests per endpoint as horizontal bars: endpoints are categories, not times, so these are
 * drawn with boxes rather than the time chart. Errors are the striped end of each bar (the
 * stripes, not only the colour, set them apart), and the scale names its maximum.
 */
function EndpointChart({ endpoints }: { endpoints: Endpoints }) {
  const title = `Requests and errors per endpoint, last ${DAYS} days`;
  const max = Math.max(1, ...endpoints.map((e) => e.request_count));
  const width = (n: number) => `${(n / max) * 100}%`;
  return (
    <figure class="chart endpoint-chart">
      <figcaption class="chart-title">{title}</figcaption>
      <div class="hbars" aria-hidden="true">
        {endpoints.map((e) => (
          <div class="hbar" key={e.endpoint}>
            <span class="hbar-label mono" title={e.endpoint}>
              {e.endpoint}
            </span>
            <span class="hbar-track">
              <span class="hbar-ok" style={{ width: width(e.request_count - e.error_count) }} />
              <span class="hbar-err" style={{ width: width(e.error_count) }} />
            </span>
            <span class="hbar-value">
              {fmtNumber(e.request_count)}
              {e.error_count > 0 ? <span class="muted"> · {fmtCount(e.error_count, 'error')}</span> : null}
            </span>
          </div>
        ))}
        <div class="hbar hbar-axis">
          <span class="hbar-label" />
          <span class="hbar-scale">
            <span>0</span>
            <span>{fmtCount(max, 'request')}</span>
          </span>
          <span class="hbar-value" />
        </div>
      </div>
      <ul class="hbar-legend" aria-hidden="true">
        <li>
          <span class="swatch-ok" /> Answered
        </li>
        <li>
          <span class="swatch-err" /> Errors (status 400 or above)
        </li>
      </ul>
      <details class="chart-table">
        <summary>Show endpoints as a table</summary>
        <div class="table-wrap">
          <table>
            <caption class="visually-hidden">{title}</caption>
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col" class="num">
                  Requests
                </th>
                <th scope="col" class="num">
                  Errors
                </th>
                <th scope="col" class="num">
                  Error rate
                </th>
              </tr>
            </thead>
            <tbody>
              {endpoints.map((e) => (
                <tr key={e.endpoint}>
                  <th scope="row" class="mono">
                    {e.endpoint}
                  </th>
                  <td class="num">{fmtNumber(e.request_count)}</td>
                  <td class="num">{fmtNumber(e.error_count)}</td>
                  <td class="num">{fmtPercent(e.request_count === 0 ? null : e.error_count / e.request_count)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}

/** One key's requests per day (all of them, or one endpoint's) and per endpoint. */
export function KeyUsagePanel({ keyItem }: { keyItem: ApiKey }) {
  const usage = useData(() => api<KeyUsage>('GET', `/v1/keys/${encodeURIComponent(keyItem.key_id)}/usage${query({ days: DAYS })}`), keyItem.key_id);
  const [endpoint, setEndpoint] = useState('');
  const u = usage.value;
  const one = u?.endpoints.find((e) => e.endpoint === endpoint) ?? null;
  const days = one?.items ?? u?.items ?? [];
  const [saveError, setSaveError] = useState<Error | null>(null);
  const save = (format: 'csv' | 'json') => () => {
    setSaveError(null);
    const path = `/v1/keys/${encodeURIComponent(keyItem.key_id)}/usage${query({ days: DAYS, format })}`;
    download(path, `key-usage.${format}`).catch(setSaveError);
  };
  return (
    <div class="panel key-usage">
      <div class="panel-header">
        <h2>
          Requests of “{keyItem.name}”, last {DAYS} days
        </h2>
        <span class="panel-actions">
          <button type="button" class="button small" onClick={save('csv')} disabled={!u}>
            Download CSV
          </button>
          <button type="button" class="button small" onClick={save('json')} disabled={!u}>
            Download JSON
          </button>
        </span>
      </div>
      <ErrorNote error={usage.error} retry={usage.reload} />
      <ErrorNote error={saveError} />
      {u ? (
        <>
          {u.endpoints.length > 0 ? (
            <div class="field usage-endpoint">
              <label for="usage-endpoint">Per day, for</label>
              <select id="usage-endpoint" value={one ? endpoint : ''} onChange={(e) => setEndpoint((e.target as HTMLSelectElement).value)}>
                <option value="">every endpoint</option>
                {u.endpoints.map((e) => (
                  <option key={e.endpoint} value={e.endpoint}>
                    {e.endpoint}
                  </option>
                ))}
              </select>
            </div>
          ) : null}
          <Chart
            title={one ? `Requests and errors per day of ${one.endpoint} (UTC)` : 'Requests and errors per day (UTC)'}
            emptyText={one ? 'No requests to this endpoint in these days.' : `No requests with this key in the last ${DAYS} days.`}
            kind="bars"
            x={days.map((d) => Date.parse(`${d.day}T00:00:00Z`))}
            timeLabel={(ms) => new Date(ms).toISOString().slice(0, 10)}
            series={[
              { label: 'Requests', color: '--chart-1', values: days.map((d) => d.request_count) },
              { label: 'Errors', color: '--chart-error', values: days.map((d) => d.error_count) },
            ]}
          />
          {u.endpoints.length > 0 ? <EndpointChart endpoints={u.endpoints} /> : null}
        </>
      ) : usage.loading ? (
        <Loading />
      ) : null}
    </div>
  );
}
