import { useEffect, useRef, useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { ViewHeader } from '../components/layout.js';
import { LinkStatus, useLiveRefresh } from '../components/live.js';
import { FirstSteps } from '../components/first-steps.js';
import { ConfirmDialog, Empty, ErrorNote, Link, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtNumber } from '../format.js';
import { BASE, navigate, usePlace, withParams } from '../router.js';
import { STATUSES, type Device, type Fleet, type Group, type RegistryEvent } from '../types.js';
import { useDeviceOrder } from './device-order.js';
import { DeviceTable } from './device-table.js';
import { GroupsPanel } from './groups.js';

/** Re-read only while the live stream is down: otherwise the stream says when something changed. */
const FALLBACK_MS = 60_000;
/** "Last seen 3 min ago" moves on without a re-read. */
const TICK_MS = 30_000;

/** What changes the list: a device's status (a new device starts with one), or a proof (counts, last seen). */
const NO_DEVICES: Device[] = [];

const changesFleet = (e: RegistryEvent) => e.type === 'device.status_changed' || e.type === 'proof.accepted';

function useNow(periodMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), periodMs);
    return () => clearInterval(timer);
  }, [periodMs]);
  return now;
}

export function FleetPage() {
  const place = usePlace();
  const status = place.params.get('status');
  const groupId = place.params.get('group');
  const search = place.params.get('q') ?? '';
  const [cursor, setCursor] = useState<string | null>(null);
  const key = `${status} ${groupId} ${cursor}`;
  // The stream decides how often the list is read, and the list's reload is what the stream calls.
  const reload = useRef<() => void>(() => undefined);
  const link = useLiveRefresh(() => reload.current(), changesFleet);
  const fleet = useData(
    () => api<Fleet>('GET', `/v1/fleet${query({ limit: 200, status, group_id: groupId, cursor })}`),
    key,
    link.kind === 'live' ? undefined : FALLBACK_MS,
  );
  reload.current = fleet.reload;
  const now = useNow(TICK_MS);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [target, setTarget] = useState('');
  const [message, setMessage] = useState('');
  const [actionError, setActionError] = useState<Error | null>(null);
  const [deleting, setDeleting] = useState<Group | null>(null);

  const f = fleet.value;
  const order = useDeviceOrder(f?.devices ?? NO_DEVICES, fleet.reload);
  const needle = search.trim().toLowerCase();
  // A position means something only in the whole fleet's list: not in a filtered one, nor on a page of it.
  const wholeFleet = !status && !groupId && !needle && !cursor && !f?.next_cursor;
  const devices = order.devices.filter((d) => !needle || d.name.toLowerCase().includes(needle) || d.device_id.toLowerCase().includes(needle));
  const groupName = (id: string | null) => (id === null ? '—' : (f?.groups.find((g) => g.group_id === id)?.name ?? id));
  const currentGroup = groupId && groupId !== 'none' ? (f?.groups.find((g) => g.group_id === groupId) ?? null) : null;
  const toggle = (id: string) => setSelected((s) => (s.has(id) ? new Set([...s].filter((x) => x !== id)) : new Set([...s, id])));
  const allShown = devices.length > 0 && devices.every((d) => selected.has(d.device_id));

  const change = async (action: 'assign' | 'unassign', group: string) => {
    setActionError(null);
    try {
      const ids = [...selected];
      const res = await api<{ group: { name: string }; changed: number }>('POST', `/v1/fleet/groups/${encodeURIComponent(group)}/${action}`, {
        device_ids: ids,
      });
      setMessage(
        `${action === 'assign' ? 'Moved' : 'Removed'} ${res.changed} of ${ids.length} device${ids.length === 1 ? '' : 's'} ${action === 'assign' ? 'into' : 'from'} “${res.group.name}”.`,
      );
      setSelected(new Set());
      fleet.reload();
    } catch (err) {
      setActionError(err as Error);
    }
  };

  const removeGroup = async (confirmed: boolean) => {
    const g = deleting;
    setDeleting(null);
    if (!confirmed || !g) return;
    try {
      const res = await api<{ unassigned: number }>('DELETE', `/v1/fleet/groups/${encodeURIComponent(g.group_id)}`);
      setMessage(`Deleted the group “${g.name}”; ${res.unassigned} device${res.unassigned === 1 ? ' is' : 's are'} now in no group.`);
      if (groupId === g.group_id) navigate(withParams(place, { group: null }), { replace: true });
      fleet.reload();
    } catch (err) {
      setActionError(err as Error);
    }
  };

  return (
    <section>
      <ViewHeader
        title="Fleet"
        lead="Every device that sent a proof or a health report, in the order you give it (drag a row by its handle, or use its Move up and Move down buttons). The list follows status changes and new proofs as they happen (re-read every minute while the live connection is down)."
      >
        <LinkStatus state={link} />
      </ViewHeader>
      <p role="status" class="visually-hidden-empty">
        {message}
      </p>
      {message ? <div class="note note-success">{message}</div> : null}
      <ErrorNote error={actionError} />
      <ErrorNote error={order.error} />
      <p role="status" class="visually-hidden" data-testid="order-announcement">
        {order.announcement}
      </p>
      <div class="toolbar">
        <nav aria-label="Filter by status" class="chips">
          <Link href={withParams(place, { status: null })} class="chip" aria-current={status === null ? 'page' : undefined}>
            All <span class="count">{fmtNumber(f?.summary.total_devices)}</span>
          </Link>
          {STATUSES.map((s) => (
            <Link key={s} href={withParams(place, { status: s })} class="chip" aria-current={status === s ? 'page' : undefined}>
              {s} <span class="count">{fmtNumber(f?.summary.by_status[s])}</span>
            </Link>
          ))}
        </nav>
        <form role="search" class="search" onSubmit={(e) => e.preventDefault()}>
          <label for="device-search" class="visually-hidden">
            Search devices by name or id
          </label>
          <input
            id="device-search"
            type="search"
            placeholder="Search by name or id"
            value={search}
            onInput={(e) => navigate(withParams(place, { q: (e.target as HTMLInputElement).value }), { replace: true })}
          />
        </form>
      </div>
      <div class="fleet-layout">
        <div>
          <div class="toolbar">
            <label for="group-filter">Group</label>
            <select
              id="group-filter"
              value={groupId ?? ''}
              onChange={(e) => (setCursor(null), navigate(withParams(place, { group: (e.target as HTMLSelectElement).value })))}
            >
              <option value="">All groups</option>
              <option value="none">In no group</option>
              {f?.groups.map((g) => (
                <option key={g.group_id} value={g.group_id}>
                  {g.name}
                </option>
              ))}
            </select>
            <span class="spacer" />
            <span class="muted">{selected.size} selected</span>
            <label for="assign-target" class="visually-hidden">
              Group to move the selected devices into
            </label>
            <select id="assign-target" value={target} onChange={(e) => setTarget((e.target as HTMLSelectElement).value)}>
              <option value="">Move to group…</option>
              {f?.groups.map((g) => (
                <option key={g.group_id} value={g.group_id}>
                  {g.name}
                </option>
              ))}
            </select>
            <button type="button" class="button small" disabled={selected.size === 0 || !target} onClick={() => change('assign', target)}>
              Move
            </button>
            {currentGroup ? (
              <button type="button" class="button small" disabled={selected.size === 0} onClick={() => change('unassign', currentGroup.group_id)}>
                Remove from “{currentGroup.name}”
              </button>
            ) : null}
          </div>
          <ErrorNote error={fleet.error} retry={fleet.reload} />
          {f ? (
            devices.length === 0 ? (
              <Empty title={f.summary.total_devices === 0 ? 'No devices yet' : 'No device matches'}>
                {f.summary.total_devices === 0 ? (
                  <>
                    <p>A device appears here with its first proof (its robot_id) or its first health report.</p>
                    <FirstSteps />
                  </>
                ) : (
                  <p>
                    Change the filters, or <Link href={`${BASE}fleet`}>show every device</Link>.
                  </p>
                )}
              </Empty>
            ) : (
              <DeviceTable
                devices={devices}
                now={now}
                selected={selected}
                toggle={toggle}
                allShown={allShown}
                groupName={groupName}
                setAll={(on) => setSelected(on ? new Set(devices.map((d) => d.device_id)) : new Set())}
                moves={wholeFleet && devices.length > 1 ? order : null}
              />
            )
          ) : fleet.loading ? (
            <Loading />
          ) : null}
          {f && !wholeFleet && devices.length > 1 ? (
            <p class="muted">The order can be changed in the list of every device: without a filter, a search or a next page.</p>
          ) : null}
          {f?.next_cursor ? (
            <button type="button" class="button" onClick={() => setCursor(f.next_cursor)}>
              Next page
            </button>
          ) : null}
        </div>
        <GroupsPanel groups={f?.groups ?? []} onChanged={(m) => (setMessage(m), fleet.reload())} onDelete={setDeleting} />
      </div>
      <ConfirmDialog open={deleting !== null} title={`Delete the group “${deleting?.name ?? ''}”?`} confirmLabel="Delete group" danger onClose={removeGroup}>
        <p>
          {deleting?.device_count === 0
            ? 'It has no devices.'
            : deleting?.device_count === 1
              ? 'Its 1 device stays in the fleet, in no group.'
              : `Its ${fmtNumber(deleting?.device_count)} devices stay in the fleet, in no group.`}{' '}
          No proof or device is deleted.
        </p>
      </ConfirmDialog>
    </section>
  );
}
