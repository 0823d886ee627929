import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import type { ShownSecret } from '../components/secret-dialog.js';
import { useLiveRefresh } from '../components/live.js';
import { ConfirmDialog, ErrorNote } from '../components/ui.js';
import { fmtAgo, fmtDate } from '../format.js';
import { usePlace } from '../router.js';
import type { RegistryEvent, WebhookEndpoint } from '../types.js';
import { DeliveryLog } from './webhook-deliveries.js';
import { bodyOf, draftOf, EndpointFields, EVENT_LABELS, fieldOf, type EndpointDraft } from './webhook-form.js';

/** After an action, the delivery log is watched closely this long: the delivery it makes appears within moments. */
const WATCH_MS = 20_000;

/** Enabled, failing, or off (and who turned it off): a word with a shape, and the why. */
export function EndpointStatus({ e }: { e: WebhookEndpoint }) {
  if (!e.enabled) {
    return (
      <span class="endpoint-status">
        <span class={`badge ${e.disabled_reason ? 'badge-error' : 'badge-offline'}`}>disabled</span>{' '}
        <span class="sub-inline">{e.disabled_reason ? `by the registry: ${e.disabled_reason}` : 'turned off here'}</span>
      </span>
    );
  }
  if (e.failing_since) {
    return (
      <span class="endpoint-status">
        <span class="badge badge-warning">failing</span>{' '}
        <span class="sub-inline" title={e.failing_since}>
          since {fmtDate(e.failing_since)}
        </span>
      </span>
    );
  }
  return (
    <span class="endpoint-status">
      <span class="badge badge-online">enabled</span>{' '}
      <span class="sub-inline">{e.last_success_at ? `last success ${fmtAgo(e.last_success_at)}` : 'no delivery yet'}</span>
    </span>
  );
}

export const typesText = (e: WebhookEndpoint) => (e.event_types === null ? 'Every event type' : e.event_types.map((t) => EVENT_LABELS[t] ?? t).join(', '));

/** One endpoint: what it is, what can be done to it, and its delivery log. */
export function EndpointPanel(p: {
  endpoint: WebhookEndpoint;
  onChanged: () => void;
  onDeleted: (message: string) => void;
  onSecret: (s: ShownSecret) => void;
}) {
  const e = p.endpoint;
  const path = `/v1/webhooks/${encodeURIComponent(e.endpoint_id)}`;
  const [editing, setEditing] = useState<EndpointDraft | null>(null);
  const [editError, setEditError] = useState<Error | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [confirm, setConfirm] = useState<'delete' | 'rotate' | null>(null);
  const [busy, setBusy] = useState(false);
  const [watchUntil, setWatchUntil] = useState(0);
  const watch = () => setWatchUntil(Date.now() + WATCH_MS);
  // An event this endpoint takes becomes a delivery within moments (proof.logged follows proof.accepted).
  const takes = (ev: RegistryEvent) =>
    e.enabled &&
    (e.event_types === null || e.event_types.includes(ev.type as never) || (ev.type === 'proof.accepted' && e.event_types.includes('proof.logged')));
  useLiveRefresh(watch, takes, { onResync: false });
  // What the last action did, until the next one or until another delivery is opened.
  const [said, setSaid] = useState('');
  const delivery = usePlace().params.get('delivery');
  useEffect(() => setSaid(''), [delivery]);

  const act = async (run: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    setSaid('');
    try {
      const message = await run();
      if (message) {
        setSaid(message);
        p.onChanged();
      }
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };
  const sendTest = () =>
    act(async () => {
      await api('POST', `${path}/test`);
      watch();
      return 'Test event queued: it appears in the delivery log below within moments.';
    });
  const setEnabled = (enabled: boolean) =>
    act(async () => {
      await api('PATCH', path, { enabled });
      return enabled ? 'Enabled: events are delivered again.' : 'Disabled: nothing is sent to it until you enable it.';
    });
  const save = async (ev: Event) => {
    ev.preventDefault();
    if (!editing) return;
    setEditError(null);
    try {
      await api('PATCH', path, bodyOf(editing));
      setEditing(null);
      setSaid('Saved the endpoint.');
      p.onChanged();
    } catch (err) {
      setEditError(err as Error);
    }
  };
  const confirmed = (yes: boolean) => {
    const what = confirm;
    setConfirm(null);
    if (!yes) return;
    if (what === 'delete') {
      void act(async () => {
        await api('DELETE', path);
        p.onDeleted(`Deleted the endpoint ${e.url}; nothing more is sent to it.`);
        return null;
      });
    }
    if (what === 'rotate') {
      void act(async () => {
        const r = await api<{ secret: string; previous_secret_expires_at: string | null }>('POST', `${path}/rotate-secret`, {});
        p.onSecret({
          title: 'The new signing secret',
          secret: r.secret,
          note: r.previous_secret_expires_at
            ? `Until ${fmtDate(r.previous_secret_expires_at)} deliveries carry two signatures, with the new and the old secret, so your receiver can switch without refusing any.`
            : undefined,
        });
        return 'Rotated the signing secret.';
      });
    }
  };

  return (
    <section class="panel endpoint" aria-labelledby="endpoint-heading">
      <h2 id="endpoint-heading">
        Endpoint <span class="mono break endpoint-url">{e.url}</span>
      </h2>
      <p>
        <EndpointStatus e={e} />
      </p>
      <div class="toolbar endpoint-actions">
        <button type="button" class="button small" disabled={busy || !e.enabled} onClick={sendTest} title={e.enabled ? undefined : 'Enable it first'}>
          Send test event
        </button>
        <button
          type="button"
          class="button small"
          disabled={busy}
          onClick={() => (setEditError(null), setEditing(editing ? null : draftOf(e)))}
          aria-expanded={editing !== null}
        >
          Edit
        </button>
        <button type="button" class="button small" disabled={busy} onClick={() => setEnabled(!e.enabled)}>
          {e.enabled ? 'Disable' : 'Enable'}
        </button>
        <button type="button" class="button small" disabled={busy} onClick={() => setConfirm('rotate')}>
          Rotate secret
        </button>
        <button type="button" class="button small danger-text" disabled={busy} onClick={() => setConfirm('delete')}>
          Delete
        </button>
      </div>
      <p role="status" class="visually-hidden-empty">
        {said}
      </p>
      {said ? <p class="note note-success">{said}</p> : null}
      <ErrorNote error={error} />
      {editing ? (
        <form class="stack edit-endpoint" onSubmit={save} noValidate aria-label="Edit the endpoint">
          <EndpointFields id="edit" draft={editing} onChange={setEditing} error={editError} />
          {editError && fieldOf(editError) === null ? <ErrorNote error={editError} /> : null}
          <div class="form-actions">
            <button type="submit" class="button primary" disabled={editing.url.trim() === '' || editing.types.length === 0}>
              Save endpoint
            </button>
            <button type="button" class="button" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <dl class="facts">
          <dt>Events</dt>
          <dd>{typesText(e)}</dd>
          <dt>Description</dt>
          <dd>{e.description ?? '—'}</dd>
          <dt>Created</dt>
          <dd>{fmtDate(e.created_at)}</dd>
          <dt>Last success</dt>
          <dd title={e.last_success_at ?? ''}>{e.last_success_at ? fmtDate(e.last_success_at) : 'never'}</dd>
          {e.previous_secret_expires_at ? (
            <>
              <dt>Previous secret</dt>
              <dd>also signs deliveries until {fmtDate(e.previous_secret_expires_at)}</dd>
            </>
          ) : null}
        </dl>
      )}
      <DeliveryLog endpointId={e.endpoint_id} watchUntil={watchUntil} onWatch={watch} onActivity={p.onChanged} />
      {/* One dialog for both questions: each ConfirmDialog names itself with the same id. */}
      <ConfirmDialog
        open={confirm !== null}
        title={confirm === 'rotate' ? 'Rotate the signing secret?' : 'Delete this endpoint?'}
        confirmLabel={confirm === 'rotate' ? 'Rotate secret' : 'Delete endpoint'}
        danger={confirm !== 'rotate'}
        onClose={confirmed}
      >
        {confirm === 'rotate' ? (
          <p>
            The registry makes a new secret and shows it once. For the next 24 hours each delivery is signed with both the new and the old one, so you can
            update your receiver without refusing any.
          </p>
        ) : (
          <p>
            Nothing more is sent to <span class="mono break">{e.url}</span>, and its delivery log is deleted with it. This cannot be undone.
          </p>
        )}
      </ConfirmDialog>
    </section>
  );
}
