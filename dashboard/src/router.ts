import { useEffect, useState } from 'preact/hooks';

/** Every view is a URL under /dashboard/, filters in its query string: a reload or a shared link returns to it. */
export const BASE = '/dashboard/';

export interface Place {
  /** The path below /dashboard/, without a leading slash ('' is the overview). */
  readonly path: string;
  readonly params: URLSearchParams;
}

const read = (): Place => ({
  path: location.pathname.startsWith(BASE) ? location.pathname.slice(BASE.length) : '',
  params: new URLSearchParams(location.search),
});

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((l) => l()));

export function navigate(to: string, opts: { replace?: boolean } = {}): void {
  const url = to.startsWith('/') ? to : BASE + to;
  if (url === location.pathname + location.search) return;
  if (opts.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  listeners.forEach((l) => l());
  if (!opts.replace) window.scrollTo(0, 0);
}

export function usePlace(): Place {
  const [place, setPlace] = useState(read);
  useEffect(() => {
    const update = () => setPlace(read());
    listeners.add(update);
    return () => void listeners.delete(update);
  }, []);
  return place;
}

/** A link that navigates without reloading the page (a modified click still opens a tab). */
export function onLink(e: MouseEvent): void {
  const a = (e.currentTarget as HTMLAnchorElement | null) ?? null;
  if (!a || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  e.preventDefault();
  navigate(a.getAttribute('href') ?? BASE);
}

/** The same view with some query parameters changed (empty ones dropped). */
export function withParams(place: Place, changes: Record<string, string | null | undefined>): string {
  const q = new URLSearchParams(place.params);
  for (const [k, v] of Object.entries(changes)) {
    if (v === undefined || v === null || v === '') q.delete(k);
    else q.set(k, v);
  }
  const text = q.toString();
  return BASE + place.path + (text ? `?${text}` : '');
}
