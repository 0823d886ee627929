import type { ComponentType } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { ErrorNote, Loading } from './ui.js';

/**
 * A view whose code loads when it is first opened, not with the page: the first load stays
 * small for the views everyone uses. A failed download can be tried again.
 */
export function lazyView<P extends object>(load: () => Promise<ComponentType<P>>): ComponentType<P> {
  let loading: Promise<ComponentType<P>> | null = null;
  return function LazyView(props: P) {
    const [view, setView] = useState<{ View: ComponentType<P> } | null>(null);
    const [error, setError] = useState<Error | null>(null);
    const [attempt, setAttempt] = useState(0);
    useEffect(() => {
      (loading ??= load()).then(
        (View) => setView({ View }),
        (err: Error) => {
          loading = null;
          setError(err);
        },
      );
    }, [attempt]);
    if (view) return <view.View {...props} />;
    if (error) return <ErrorNote error={error} retry={() => (setError(null), setAttempt((n) => n + 1))} />;
    return <Loading />;
  };
}
