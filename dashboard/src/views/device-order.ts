import { useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { Device } from '../types.js';

export interface DeviceOrder {
  /** The devices in the order shown: the one just chosen while it is being saved, else the service's. */
  readonly devices: Device[];
  /** Moves a device to a position (0-based) and saves the whole list's order. */
  move(deviceId: string, to: number): void;
  /** Said in a live region after each move: where the device is now, or why it went back. */
  readonly announcement: string;
  readonly error: Error | null;
}

/**
 * The fleet list's order, changed from the page: each move shows at once and is saved through
 * PATCH /v1/fleet/devices/order, the list's devices numbered from 0 in their new order (the
 * service lists by that number, in /v1 and /acto alike). A refused save puts the list back as
 * the service has it and says why. Saves run one after another, so the last move is the one kept.
 */
export function useDeviceOrder(loaded: Device[], onSaved: () => void): DeviceOrder {
  // The order chosen here. While saves are under way it stands over every read of the list (a
  // read may have begun before the save it would reflect); once the last save is done, the
  // list is read again and the first read after that replaces it.
  const [pending, setPending] = useState<{ ids: string[]; heldOn: Device[] | null } | null>(null);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<Error | null>(null);
  const queue = useRef<Promise<void>>(Promise.resolve());
  const saving = useRef(0);
  const latest = useRef(loaded);
  latest.current = loaded;
  const devices = pending && (pending.heldOn === null || pending.heldOn === loaded) ? arrange(loaded, pending.ids) : loaded;

  const move = (deviceId: string, to: number) => {
    const ids = devices.map((d) => d.device_id);
    const from = ids.indexOf(deviceId);
    const name = devices[from]?.name ?? deviceId;
    if (from < 0) return;
    // Past either end of the list stays at that end.
    to = Math.max(0, Math.min(ids.length - 1, to));
    if (from === to) {
      setAnnouncement(`${name} is already at position ${from + 1} of ${ids.length}.`);
      return;
    }
    const next = [...ids];
    next.splice(from, 1);
    next.splice(to, 0, deviceId);
    saving.current++;
    setPending({ ids: next, heldOn: null });
    setError(null);
    setAnnouncement(`${name} moved to position ${to + 1} of ${ids.length}.`);
    queue.current = queue.current.then(async () => {
      try {
        await api('PATCH', '/v1/fleet/devices/order', { device_orders: next.map((device_id, sort_order) => ({ device_id, sort_order })) });
        if (--saving.current === 0) {
          setPending((p) => (p ? { ...p, heldOn: latest.current } : p));
          onSaved();
        }
      } catch (err) {
        saving.current--;
        setPending(null);
        setError(err as Error);
        setAnnouncement(`The order was not saved: ${(err as Error).message} The list is back in its saved order.`);
      }
    });
  };
  return { devices, move, announcement, error };
}

/** `devices` in the order of `ids`; a device the order does not name (new since) goes last. */
function arrange(devices: Device[], ids: readonly string[]): Device[] {
  const at = new Map(ids.map((id, i) => [id, i]));
  return [...devices].sort((a, b) => (at.get(a.device_id) ?? ids.length) - (at.get(b.device_id) ?? ids.length));
}
