import { useEffect, useRef, useState } from 'preact/hooks';
import { live, type LinkState, type LiveSnapshot } from '../live-events.js';
import type { RegistryEvent } from '../types.js';

/** The stream and the recent history, re-rendering as events arrive (for the Activity page). */
export function useLive(): LiveSnapshot {
  const [snap, setSnap] = useState(live.current);
  useEffect(() => {
    const off = live.onChange(() => setSnap(live.current));
    const release = live.acquire({ history: true });
    setSnap(live.current);
    return () => {
      off();
      release();
    };
  }, []);
  return snap;
}

/** Coalesces a burst of events (a proof comes with its device's status change) into one re-read. */
const DEBOUNCE_MS = 800;

/**
 * Keeps a view's data current from the stream: `reload` runs once shortly after events that
 * `relevant` picks, and (unless `onResync` is false) once when the stream starts with nowhere
 * to resume from, since what happened before it opened is not replayed. Re-renders only when
 * the connection's state changes, not per event.
 */
export function useLiveRefresh(reload: () => void, relevant: (e: RegistryEvent) => boolean, o: { onResync: boolean } = { onResync: true }): LinkState {
  const [state, setState] = useState(live.current.state);
  const callbacks = useRef({ reload, relevant, onResync: o.onResync });
  callbacks.current = { reload, relevant, onResync: o.onResync };
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | null = null;
    const offChange = live.onChange(() => setState(live.current.state));
    const offEvent = live.onEvent((e) => {
      if (e === 'resync' ? !callbacks.current.onResync : !callbacks.current.relevant(e)) return;
      timer ??= setTimeout(() => {
        timer = null;
        callbacks.current.reload();
      }, DEBOUNCE_MS);
    });
    const release = live.acquire();
    setState(live.current.state);
    return () => {
      offChange();
      offEvent();
      release();
      if (timer) clearTimeout(timer);
    };
  }, []);
  return state;
}

const LABELS: Record<LinkState['kind'], string> = {
  idle: 'Not connected',
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  stopped: 'Not live',
};
// The badge shapes of the device statuses: a word and a shape, never colour alone.
const SHAPES: Record<LinkState['kind'], string> = { idle: 'offline', connecting: 'degraded', live: 'online', reconnecting: 'warning', stopped: 'error' };

/** Whether the page is following events as they happen; announced when it changes. */
export function LinkStatus({ state, detailed = false }: { state: LinkState; detailed?: boolean }) {
  const why = state.kind === 'reconnecting' ? state.why : state.kind === 'stopped' ? state.error.message : null;
  return (
    <p class="link-status" role="status" data-testid="link-status">
      <span class={`badge badge-${SHAPES[state.kind]}`} title={why ?? undefined}>
        {LABELS[state.kind]}
      </span>
      {detailed && why ? <span class="muted link-why">{state.kind === 'reconnecting' ? `Connection lost: ${why}` : why}</span> : null}
    </p>
  );
}
