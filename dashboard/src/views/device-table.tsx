import { useState } from 'preact/hooks';
import { Link, StatusBadge } from '../components/ui.js';
import { fmtAgo, fmtNumber } from '../format.js';
import { BASE } from '../router.js';
import type { Device } from '../types.js';

/** Moving rows: by dragging a row's handle onto another row, or with its Move up / Move down buttons. */
export interface RowMoves {
  move(deviceId: string, to: number): void;
}

export function DeviceTable(p: {
  devices: Device[];
  now: number;
  selected: ReadonlySet<string>;
  toggle: (id: string) => void;
  allShown: boolean;
  setAll: (on: boolean) => void;
  groupName: (id: string | null) => string;
  /** Present when the list shows the whole fleet, in its order: only then does a position mean something. */
  moves: RowMoves | null;
}) {
  const [dragged, setDragged] = useState<string | null>(null);
  const [over, setOver] = useState<string | null>(null);
  const last = p.devices.length - 1;
  const drop = (e: DragEvent, to: number) => {
    e.preventDefault();
    const id = e.dataTransfer?.getData('text/plain') || dragged;
    setDragged(null);
    setOver(null);
    if (id && p.moves) p.moves.move(id, to);
  };
  return (
    <div class="table-wrap panel flush">
      <table>
        <caption class="visually-hidden">Devices</caption>
        <thead>
          <tr>
            {p.moves ? (
              <th scope="col" class="order">
                Order
              </th>
            ) : null}
            <th scope="col" class="check">
              <input
                type="checkbox"
                aria-label="Select every device shown"
                checked={p.allShown}
                onChange={(e) => p.setAll((e.target as HTMLInputElement).checked)}
              />
            </th>
            <th scope="col">Device</th>
            <th scope="col">Status</th>
            <th scope="col">Group</th>
            <th scope="col">Last seen</th>
            <th scope="col" class="num">
              Proofs
            </th>
            <th scope="col">Last health</th>
          </tr>
        </thead>
        <tbody>
          {p.devices.map((d, i) => (
            <tr
              key={d.device_id}
              data-device-id={d.device_id}
              class={
                [dragged === d.device_id ? 'dragging' : '', over === d.device_id && dragged !== d.device_id ? 'drop-target' : ''].join(' ').trim() || undefined
              }
              onDragOver={p.moves && dragged ? (e) => (e.preventDefault(), setOver(d.device_id)) : undefined}
              onDrop={p.moves ? (e) => drop(e, i) : undefined}
            >
              {p.moves ? (
                <td class="order">
                  <div class="order-controls">
                    <span
                      class="drag-handle"
                      draggable
                      title={`Drag to move ${d.name}`}
                      aria-hidden="true"
                      data-testid="drag-handle"
                      onDragStart={(e) => {
                        e.dataTransfer?.setData('text/plain', d.device_id);
                        if (e.dataTransfer) e.dataTransfer.effectAllowed = 'move';
                        setDragged(d.device_id);
                      }}
                      onDragEnd={() => (setDragged(null), setOver(null))}
                    />
                    <MoveButton label={`Move ${d.name} up`} arrow="↑" disabled={i === 0} onClick={() => p.moves?.move(d.device_id, i - 1)} />
                    <MoveButton label={`Move ${d.name} down`} arrow="↓" disabled={i === last} onClick={() => p.moves?.move(d.device_id, i + 1)} />
                  </div>
                </td>
              ) : null}
              <td class="check">
                <input type="checkbox" aria-label={`Select ${d.name}`} checked={p.selected.has(d.device_id)} onChange={() => p.toggle(d.device_id)} />
              </td>
              <th scope="row">
                <Link href={`${BASE}fleet/devices/${encodeURIComponent(d.device_id)}`}>{d.name}</Link>
                {d.custom_name ? <span class="sub mono">{d.device_id}</span> : null}
              </th>
              <td>
                <StatusBadge status={d.status} />
              </td>
              <td>{p.groupName(d.group_id)}</td>
              <td title={d.last_seen_at}>{fmtAgo(d.last_seen_at, p.now)}</td>
              <td class="num">{fmtNumber(d.proof_count)}</td>
              <td class="clip">{d.last_health?.message ?? (d.last_health ? d.last_health.status : '—')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * aria-disabled rather than disabled at the ends of the list: a button that moved its row to
 * the top keeps the keyboard focus instead of dropping it to the page, and pressed again it
 * says the device is already there.
 */
function MoveButton(p: { label: string; arrow: string; disabled: boolean; onClick: () => void }) {
  return (
    <button type="button" class="button small move" aria-label={p.label} title={p.label} aria-disabled={p.disabled ? 'true' : undefined} onClick={p.onClick}>
      <span aria-hidden="true">{p.arrow}</span>
    </button>
  );
}
