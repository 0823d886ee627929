import { useCallback, useEffect, useRef, useState } from 'preact/hooks';

export interface Data<T> {
  readonly value: T | null;
  readonly error: Error | null;
  readonly loading: boolean;
  reload(): void;
}

/**
 * Loads `fetcher` when `key` changes (and on reload()); answers of an older key are dropped,
 * so a fast filter change never shows stale rows. With `refreshMs`, reloads on that period
 * while the page is visible.
 */
export function useData<T>(fetcher: () => Promise<T>, key: string, refreshMs?: number): Data<T> {
  const [state, setState] = useState<{ value: T | null; error: Error | null; loading: boolean; key: string }>({ value: null, error: null, loading: true, key });
  const latest = useRef(0);
  const fetcherRef = useRef(fetcher);
  fetcherRef.current = fetcher;
  const load = useCallback(() => {
    const run = ++latest.current;
    setState((s) => ({ ...s, loading: true, ...(s.key !== key ? { value: null, error: null, key } : {}) }));
    fetcherRef.current().then(
      (value) => run === latest.current && setState({ value, error: null, loading: false, key }),
      (error: Error) => run === latest.current && setState((s) => ({ ...s, error, loading: false })),
    );
  }, [key]);
  useEffect(load, [load]);
  useEffect(() => {
    if (!refreshMs) return;
    const tick = () => document.visibilityState === 'visible' && load();
    const timer = setInterval(tick, refreshMs);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  }, [load, refreshMs]);
  return { value: state.key === key ? state.value : null, error: state.error, loading: state.loading, reload: load };
}
