import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { onLink } from '../router.js';

export function Link(p: { href: string; children: ComponentChildren; class?: string; title?: string; 'aria-current'?: 'page' | undefined }) {
  return (
    <a href={p.href} onClick={onLink} class={p.class} title={p.title} aria-current={p['aria-current']}>
      {p.children}
    </a>
  );
}

/** Device status as a word with a shape, never colour alone. */
export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge badge-${status}`}>{status}</span>;
}

export function Empty({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <div class="empty">
      <p class="empty-title">{title}</p>
      {children ? <div class="empty-body">{children}</div> : null}
    </div>
  );
}

/** An error, announced to screen readers as it appears. */
export function ErrorNote({ error, retry }: { error: Error | null; retry?: () => void }) {
  if (!error) return null;
  const status = error instanceof ApiError ? error.status : null;
  const retryAfter = error instanceof ApiError && error.retryAfterS ? ` Retry in about ${error.retryAfterS} s.` : '';
  return (
    <div class="note note-error" role="alert">
      <p>
        {status === 503 ? 'The service cannot answer right now: ' : ''}
        {error.message}
        {retryAfter}
      </p>
      {retry ? (
        <button type="button" class="button small" onClick={retry}>
          Try again
        </button>
      ) : null}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p class="loading" role="status">
      {label}
    </p>
  );
}

/** Copies text; says so in a live region, since the button's own change is easy to miss. */
export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [done, setDone] = useState<'copied' | 'failed' | null>(null);
  useEffect(() => {
    if (!done) return;
    const t = setTimeout(() => setDone(null), 2000);
    return () => clearTimeout(t);
  }, [done]);
  return (
    <span class="copy">
      <button
        type="button"
        class="button small"
        onClick={() =>
          navigator.clipboard.writeText(text).then(
            () => setDone('copied'),
            () => setDone('failed'),
          )
        }
      >
        {label}
      </button>
      <span role="status" class="copy-state">
        {done === 'copied' ? 'Copied' : done === 'failed' ? 'Copy failed: select the text instead' : ''}
      </span>
    </span>
  );
}

/** A confirmation in a native modal <dialog>: focus is trapped and Escape cancels, as browsers do it. */
export function ConfirmDialog(p: {
  open: boolean;
  title: string;
  children: ComponentChildren;
  confirmLabel: string;
  danger?: boolean;
  onClose: (confirmed: boolean) => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (p.open && !d.open) d.showModal();
    if (!p.open && d.open) d.close();
  }, [p.open]);
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="dialog-title" onClose={() => p.open && p.onClose(false)}>
      <form method="dialog" onSubmit={(e) => (e.preventDefault(), p.onClose(true))}>
        <h2 id="dialog-title">{p.title}</h2>
        <div class="dialog-body">{p.children}</div>
        <div class="dialog-actions">
          <button type="button" class="button" onClick={() => p.onClose(false)}>
            Cancel
          </button>
          <button type="submit" class={p.danger ? 'button danger' : 'button primary'}>
            {p.confirmLabel}
          </button>
        </div>
      </form>
    </dialog>
  );
}

export function Stat({ label, value, hint }: { label: string; value: ComponentChildren; hint?: ComponentChildren }) {
  return (
    <div class="stat">
      <dt>{label}</dt>
      <dd>
        <span class="stat-value">{value}</span>
        {hint ? <span class="stat-hint">{hint}</span> : null}
      </dd>
    </div>
  );
}
