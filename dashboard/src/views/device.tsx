import { useState } from 'preact/hooks';
import { api, ApiError, query } from '../api.js';
import { Chart } from '../components/chart.js';
import { ViewHeader } from '../components/layout.js';
import { ConfirmDialog, Empty, ErrorNote, Link, Loading, Stat, StatusBadge } from '../components/ui.js';
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

const yesNo = (v: boolean | undefined, yes: string, no: string) => (v === undefined ? undefined : v ? yes : no);
const num = (v: number | null | undefined, unit: string) => (v === null || v === undefined ? undefined : `${fmtNumber(v)} ${unit}`);

/** Every reading of a report that the device sent, labelled, in a fixed order. */
function readingsOf(h: Health): Array<[string, string]> {
  const memory =
    h.memory_used_mb !== undefined && h.memory_total_mb !== undefined
      ? `${fmtNumber(h.memory_used_mb)} of ${fmtNumber(h.memory_total_mb)} MB`
      : num(h.memory_used_mb ?? h.memory_total_mb, 'MB');
  const rows: Array<[string, string | undefined]> = [
    ['Status', `${h.status}${h.status_derived ? ' (derived from the readings)' : ''}`],
    ['CPU', num(h.cpu_percent, '%')],
    ['CPU temperature', num(h.cpu_temperature, '°C')],
    ['Memory', num(h.memory_percent, '%')],
    ['Memory used', memory],
    ['Disk', num(h.disk_percent, '%')],
    ['Battery', num(h.battery_percent, '%')],
    ['Charging', yesNo(h.battery_charging, 'yes', 'no')],
    ['Network', yesNo(h.network_connected, `connected${h.network_type ? ` (${h.network_type})` : ''}`, 'disconnected') ?? h.network_type],
    ['Temperature', num(h.temperature_c, '°C')],
    ['Uptime', h.uptime_s === null ? undefined : `${fmtNumber(Math.round(h.uptime_s / 60))} min`],
    ['Message', h.message ?? undefined],
    ...Object.entries(h.metrics ?? {}).map(([k, v]): [string, string] => [k, fmtNumber(v)]),
    ...Object.entries(h.custom_metrics ?? {}).map(([k, v]): [string, string] => [k, typeof v === 'number' ? fmtNumber(v) : String(v)]),
  ];
  return rows.filter((r): r is [string, string] => r[1] !== undefined);
}

export function DevicePage({ deviceId }: { deviceId: string }) {
  const device = useData(
    () => api<DeviceDetail>('GET', `/v1/fleet/devices/${encodeURIComponent(deviceId)}${query({ health_limit: 200, proof_limit: 20 })}`),
    deviceId,
    30_000,
  );
  const [name, setName] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<Error | null>(null);
  const [saved, setSaved] = useState('');
  const [details, setDetails] = useState<{ type: string; description: string } | null>(null);
  const [hiding, setHiding] = useState(false);
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
  const saveDetails = async (e: Event) => {
    e.preventDefault();
    if (!details) return;
    setSaveError(null);
    try {
      await api<Device>('PATCH', `/v1/fleet/devices/${encodeURIComponent(deviceId)}`, { type: details.type, description: details.description });
      setSaved('Details saved.');
      setDetails(null);
      device.reload();
    } catch (err) {
      setSaveError(err as Error);
    }
  };
  const hide = async (confirmed: boolean) => {
    setHiding(false);
    if (!confirmed) return;
    setSaveError(null);
    try {
      await api('DELETE', `/v1/fleet/devices/${encodeURIComponent(deviceId)}`);
      setSaved('Hidden from the fleet. It comes back with its next proof or health report.');
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
        device.loading ? (
          <Loading />
        ) : null
      ) : (
        <>
          <dl class="stats">
            <Stat label="Last seen" value={fmtAgo(d.last_seen_at)} hint={fmtDate(d.last_seen_at)} />
            <Stat label="Proofs" value={fmtNumber(d.proof_count)} hint={d.last_proof_at ? `last ${fmtAgo(d.last_proof_at)}` : 'none yet'} />
            <Stat
              label="Last health"
              value={d.last_health?.status ?? '—'}
              hint={d.last_health?.message ?? (d.last_health ? fmtDate(d.last_health.received_at) : 'no report yet')}
            />
            <Stat label="First seen" value={fmtAgo(d.first_seen_at)} hint={fmtDate(d.first_seen_at)} />
          </dl>
          {d.hidden ? <p class="note note-warning">This device is hidden from the fleet. It comes back with its next proof or health report.</p> : null}
          <div class="panel">
            <h2>Latest health</h2>
            {d.last_health ? (
              <dl class="readings" aria-label="Latest health readings">
                {readingsOf(d.last_health).map(([label, value]) => (
                  <div key={label}>
                    <dt>{label}</dt>
                    <dd>{value}</dd>
                  </div>
                ))}
              </dl>
            ) : (
              <Empty title="No health report yet" />
            )}
            {d.last_health ? <p class="muted">Reported {fmtAgo(d.last_health.received_at)}.</p> : null}
          </div>
          <div class="panel">
            <h2>Name and details</h2>
            <form class="inline-form" onSubmit={rename}>
              <label for="device-name">Display name</label>
              <input id="device-name" required maxLength={100} value={name ?? d.name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />
              <button type="submit" class="button" disabled={name === null || name.trim() === '' || name.trim() === d.name}>
                Rename
              </button>
            </form>
            <form class="stack-form" onSubmit={saveDetails}>
              <label for="device-type">Type</label>
              <input
                id="device-type"
                maxLength={64}
                placeholder="e.g. arm, drone, camera"
                value={details?.type ?? d.type ?? ''}
                onInput={(e) => setDetails({ type: (e.target as HTMLInputElement).value, description: details?.description ?? d.description ?? '' })}
              />
              <label for="device-description">Description</label>
              <textarea
                id="device-description"
                maxLength={500}
                rows={3}
                value={details?.description ?? d.description ?? ''}
                onInput={(e) => setDetails({ type: details?.type ?? d.type ?? '', description: (e.target as HTMLTextAreaElement).value })}
              />
              <div>
                <button type="submit" class="button" disabled={details === null}>
                  Save details
                </button>{' '}
                {d.hidden ? null : (
                  <button type="button" class="button danger" onClick={() => setHiding(true)}>
                    Hide device
                  </button>
                )}
              </div>
            </form>
            <p role="status" class="muted">
              {saved}
            </p>
            <ErrorNote error={saveError} />
            <ConfirmDialog open={hiding} title={`Hide “${d.name}”?`} confirmLabel="Hide device" onClose={hide}>
              <p>
                It leaves the fleet list, its counts and its group. Its proofs and health history stay, and it comes back with its next proof or health report.
              </p>
            </ConfirmDialog>
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
                  <Chart
                    key={field}
                    title={`${label} (${unit})`}
                    kind="lines"
                    height={160}
                    x={x}
                    series={[{ label, unit, color, values: history.map((h) => h[field]) }]}
                  />
                ))}
              </div>
            )}
          </div>
          <div class="panel flush">
            <h2 class="pad">Recent proofs</h2>
            {d.recent_proofs.length === 0 ? (
              <Empty title="No proofs from this device yet" />
            ) : (
              <ProofTable proofs={d.recent_proofs} caption={`Recent proofs of ${d.name}`} />
            )}
            <p class="pad">
              <Link href={`${BASE}proofs?robot_id=${encodeURIComponent(d.device_id)}`}>All proofs of this device</Link>
            </p>
          </div>
        </>
      )}
    </section>
  );
}
