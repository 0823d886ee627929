import { useEffect, useRef } from 'preact/hooks';
import { CopyButton } from './ui.js';

/** A signing secret the service shows once: held only in the caller's state, dropped when this closes. */
export interface ShownSecret {
  readonly title: string;
  readonly secret: string;
  readonly note?: string;
}

/**
 * The secret in a modal <dialog>: it cannot be missed under the list, and closing it (the
 * button, Escape) is the moment the page forgets the secret.
 */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (shown && !d.open) d.showModal();
    if (!shown && d.open) d.close();
  }, [shown]);
  return (
    <dialog ref={ref} class="dialog secret-dialog" aria-labelledby="secret-title" aria-describedby="secret-warning" onClose={() => shown && onClose()}>
      {shown ? (
        <>
          <h2 id="secret-title">{shown.title}</h2>
          <p id="secret-warning" class="note note-warning">
            <strong>Copy it now: you will not see it again.</strong> This page does not keep it, and the registry shows it only this once. Your receiver checks
            each delivery's webhook-signature header with it.
          </p>
          <div class="command">
            <code class="mono break" data-testid="webhook-secret">
              {shown.secret}
            </code>
            <CopyButton text={shown.secret} label="Copy secret" />
          </div>
          {shown.note ? <p class="muted">{shown.note}</p> : null}
          <div class="dialog-actions">
            <button type="button" class="button primary" onClick={onClose}>
              I have stored it
            </button>
          </div>
        </>
      ) : null}
    </dialog>
  );
}
