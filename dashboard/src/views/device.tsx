import { useState } from 'preact/hooks';
import { api, ApiError, query } from '../api.js';
import { Chart } from '../components/chart.js';
import { ViewHeader } from '../components/layout.js';
import { Empty, ErrorNote, Link, Loading, Stat, StatusBadge } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtAgo, fmtDate, fmtNumber } from '../format.js';
import { BASE } from '../router.js';
import type { Device, Health, ProofSummary } from '../types.js';
import { ProofTable } from './proof-table.js';

interface DeviceDetail extends Device {
  health_history: Health[];
  recent_proofs: ProofSummary[];
}

const READINGS = [
  ['cpu_percent', 'CPU', '%', '--chart-1'],
  ['memory_percent', 'Memory', '%', '--chart-2'],
  ['battery_percent', 'Battery', '%', '--chart-3'],
  ['temperature_c', 'Temperature', '°C', '--chart-4'],
] as const;

export function DevicePage({ deviceId }: { deviceId: string }) {
  const device = useData(() => api<DeviceDetail>('GET', `/v1/fleet/devices/${encodeURIComponent(deviceId)}${query({ health_limit: 200, proof_limit: 20 })}`), deviceId, 30_000);
  const [name, setName] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<Error | null>(null);
  const [saved, setSaved] = useState('');
  const d = device.value;
  if (device.error instanceof ApiError && device.error.status === 404) {
    return (
      <section>
        <ViewHeader title="Device not found" lead={`This wallet has no device “${deviceId}”.`} />
        <Link href={`${BASE}fleet`}>Back to the fleet</Link>
      </section>
    );
  }
  const rename = async (e: Event) => {
    e.preventDefault();
    setSaveError(null);
    try {
      const updated = await api<Device>('PATCH', `/v1/fleet/devices/${encodeURIComponent(deviceId)}/name`, { name: (name ?? '').trim() });
      setSaved(`Renamed to “${updated.name}”.`);
      setName(null);
      device.reload();
    } catch (err) {
      setSaveError(err as Error);
    }
  };
  // Oldest first for the charts.
  const history = d ? [...d.health_history].reverse() : [];
  const x = history.map((h) => Date.parse(h.received_at));
  return (
    <section>
      <p class="breadcrumb">
        <Link href={`${BASE}fleet`}>Fleet</Link> / <span class="mono">{deviceId}</span>
      </p>
      <ViewHeader title={d?.name ?? deviceId}>{d ? <StatusBadge status={d.status} /> : null}</ViewHeader>
      <ErrorNote error={device.error} retry={device.reload} />
      {!d ? (
        device.loading ? <Loading /> : null
      ) : (
        <>
          <dl class="stats">
            <Stat label="Last seen" value={fmtAgo(d.last_seen_at)} hint={fmtDate(d.last_seen_at)} />
            <Stat label="Proofs" value={fmtNumber(d.proof_count)} hint={d.last_proof_at ? `last ${fmtAgo(d.last_proof_at)}` : 'none yet'} />
            <Stat label="Last health" value={d.last_health?.status ?? '—'} hint={d.last_health?.message ?? (d.last_health ? fmtDate(d.last_health.received_at) : 'no report yet')} />
            <Stat label="First seen" value={fmtAgo(d.first_seen_at)} hint={fmtDate(d.first_seen_at)} />
          </dl>
          <div class="panel">
            <h2>Name</h2>
            <form class="inline-form" onSubmit={rename}>
              <label for="device-name">Display name</label>
              <input id="device-name" required maxLength={100} value={name ?? d.name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
              <button type="submit" class="button" disabled={name === null || name.trim() === '' || name.trim() === d.name}>
                Rename
              </button>
            </form>
            <p role="status" class="muted">
              {saved}
            </p>
            <ErrorNote error={saveError} />
          </div>
          <div class="panel">
            <h2>Health history</h2>
            {history.length === 0 ? (
              <Empty title="No health reports yet">
                <p>A device's health reports (POST /v1/fleet/devices/{'{id}'}/health) appear here as charts.</p>
              </Empty>
            ) : (
              <div class="charts grid-2">
                {READINGS.map(([field, label, unit, color]) => (
                  <Chart key={field} title={`${label} (${unit})`} kind="lines" height={160} x={x} series={[{ label, unit, color, values: history.map((h) => h[field]) }]} />
                ))}
              </div>
            )}
          </div>
          <div class="panel flush">
            <h2 class="pad">Recent proofs</h2>
            {d.recent_proofs.length === 0 ? <Empty title="No proofs from this device yet" /> : <ProofTable proofs={d.recent_proofs} caption={`Recent proofs of ${d.name}`} />}
            <p class="pad">
              <Link href={`${BASE}proofs?robot_id=${encodeURIComponent(d.device_id)}`}>All proofs of this device</Link>
            </p>
          </div>
        </>
      )}
    </section>
  );
}
