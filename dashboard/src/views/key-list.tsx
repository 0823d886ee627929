import { useEffect, useRef, useState } from 'preact/hooks';
import { ErrorNote, Link } from '../components/ui.js';
import { fmtAgo, fmtNumber, fmtPercent } from '../format.js';
import { withParams, type Place } from '../router.js';
import type { ApiKey, KeyInfo, KeyStatus } from '../types.js';
import { accessText, bindingText, expiryText, presetOf } from './key-grants.js';

const day = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const fmtDay = (iso: string) => day.format(new Date(iso));

/** A key's status as a word with its own shape, never colour alone. */
export function KeyStatusBadge({ status }: { status: KeyStatus }) {
  return (
    <span class={`badge badge-key-${status}`} data-testid="key-status">
      {status}
    </span>
  );
}

export interface KeyActions {
  rename(k: ApiKey): void;
  setEnabled(k: ApiKey, enabled: boolean): void;
  remove(k: ApiKey): void;
}

/**
 * The keys, one row each. On a phone each row becomes a card of labelled lines (the labels
 * come from data-label), so nothing scrolls sideways; the explicit roles keep the table a
 * table to assistive technology once its display is no longer a table's.
 */
export function KeyTable({
  keys,
  place,
  selectedId,
  busyId,
  actions,
}: {
  keys: readonly ApiKey[];
  place: Place;
  selectedId: string | null;
  busyId: string | null;
  actions: KeyActions;
}) {
  return (
    <div class="table-wrap panel flush">
      <table class="key-table" role="table">
        <caption class="visually-hidden">Your API keys</caption>
        <thead role="rowgroup">
          <tr role="row">
            <th scope="col" role="columnheader">
              Name
            </th>
            <th scope="col" role="columnheader">
              Access
            </th>
            <th scope="col" role="columnheader">
              Status
            </th>
            <th scope="col" role="columnheader">
              Last used
            </th>
            <th scope="col" role="columnheader" class="num">
              Requests
            </th>
            <th scope="col" role="columnheader" class="num">
              Errors
            </th>
            <th scope="col" role="columnheader" class="num">
              Error rate
            </th>
            <th scope="col" role="columnheader">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody role="rowgroup">
          {keys.map((k) => (
            <tr key={k.key_id} role="row" aria-selected={k.key_id === selectedId ? 'true' : undefined} class={`key-row key-${k.status}`}>
              <th scope="row" role="rowheader" class="key-name-cell">
                <Link href={withParams(place, { key: k.key_id })}>{k.name}</Link>
                <span class="sub mono" data-testid="key-prefix">
                  {k.prefix}…
                </span>
                <span class="sub">created {fmtDay(k.created_at)}</span>
              </th>
              <td role="cell" data-label="Access">
                <div>
                  <span class={presetOf(k.scopes) ? 'grant' : 'grant scope-names'} data-testid="key-access">
                    {accessText(k)}
                  </span>
                  <span class="sub" data-testid="key-binding" title={k.robot_ids?.join(', ')}>
                    {k.robot_ids === null ? 'any robot' : `bound to ${bindingText(k)}`}
                  </span>
                </div>
              </td>
              <td role="cell" data-label="Status">
                <div>
                  <KeyStatusBadge status={k.status} />
                  <span class="sub" data-testid="key-expiry">
                    {expiryText(k)}
                  </span>
                </div>
              </td>
              <td role="cell" data-label="Last used" title={k.last_used_at ?? ''}>
                {fmtAgo(k.last_used_at)}
              </td>
              <td role="cell" data-label="Requests" class="num">
                {fmtNumber(k.request_count)}
              </td>
              <td role="cell" data-label="Errors" class="num">
                {fmtNumber(k.error_count)}
              </td>
              <td role="cell" data-label="Error rate" class="num">
                {fmtPercent(k.error_rate)}
              </td>
              <td role="cell" class="actions">
                <div class="key-actions">
                  <button type="button" class="button small" onClick={() => actions.rename(k)} aria-label={`Rename the key ${k.name}`}>
                    Rename
                  </button>
                  <button
                    type="button"
                    class="button small"
                    disabled={busyId === k.key_id}
                    onClick={() => actions.setEnabled(k, !k.enabled)}
                    aria-label={`${k.enabled ? 'Disable' : 'Enable'} the key ${k.name}`}
                  >
                    {k.enabled ? 'Disable' : 'Enable'}
                  </button>
                  <button type="button" class="button small danger-text" onClick={() => actions.remove(k)} aria-label={`Delete the key ${k.name}`}>
                    Delete
                  </button>
                </div>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** Renaming in a modal dialog: the name is checked by the registry, whose refusal is shown in it. */
export function RenameDialog({
  target,
  onSave,
  onClose,
}: {
  target: KeyInfo | null;
  onSave: (k: KeyInfo, name: string) => Promise<void>;
  onClose: () => void;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const [name, setName] = useState('');
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  useEffect(() => {
    const d = ref.current;
    if (!d) return;
    if (target && !d.open) {
      setName(target.name);
      setError(null);
      d.showModal();
    }
    if (!target && d.open) d.close();
  }, [target]);
  const save = async (e: Event) => {
    e.preventDefault();
    if (!target) return;
    setSaving(true);
    setError(null);
    try {
      await onSave(target, name.trim());
    } catch (err) {
      setError(err as Error);
    } finally {
      setSaving(false);
    }
  };
  return (
    <dialog ref={ref} class="dialog" aria-labelledby="rename-title" onClose={() => target && onClose()}>
      {target ? (
        <form onSubmit={save} noValidate>
          <h2 id="rename-title">Rename the key “{target.name}”</h2>
          <div class="field">
            <label for="rename-key">New name</label>
            <input
              id="rename-key"
              required
              maxLength={100}
              value={name}
              aria-describedby="rename-hint"
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
          </div>
          <p id="rename-hint" class="hint">
            Only the label changes: the key itself, and what it may do, stay as they are.
          </p>
          <ErrorNote error={error} />
          <div class="dialog-actions">
            <button type="button" class="button" onClick={onClose}>
              Cancel
            </button>
            <button type="submit" class="button primary" disabled={saving || name.trim() === '' || name.trim() === target.name}>
              {saving ? 'Saving…' : 'Save name'}
            </button>
          </div>
        </form>
      ) : null}
    </dialog>
  );
}
