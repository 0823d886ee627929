import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ViewHeader } from '../components/layout.js';
import { SecretDialog, type ShownSecret } from '../components/secret-dialog.js';
import { Empty, ErrorNote, Link, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { navigate, usePlace, withParams } from '../router.js';
import type { WebhookEndpoint } from '../types.js';
import { EndpointPanel, EndpointStatus, typesText } from './webhook-endpoint.js';
import { bodyOf, emptyDraft, EndpointFields, fieldOf, type EndpointDraft } from './webhook-form.js';

/** An endpoint's status can change with any delivery (failing, turned off): the list is re-read this often while visible. */
const REFRESH_MS = 30_000;

export function WebhooksPage() {
  const place = usePlace();
  const endpoints = useData(() => api<{ items: WebhookEndpoint[] }>('GET', '/v1/webhooks').then((r) => r.items), 'webhooks', REFRESH_MS);
  const [draft, setDraft] = useState<EndpointDraft>(emptyDraft);
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<Error | null>(null);
  // The secret lives here only until the dialog closes: never in storage, never in the URL.
  const [secret, setSecret] = useState<ShownSecret | null>(null);
  // Shown while the endpoint it is about (or none, after a deletion) is the one chosen.
  const [notice, setNotice] = useState<{ text: string; at: string | null } | null>(null);
  // Open at first only when there is no endpoint yet; then as the user leaves it.
  const [adding, setAdding] = useState<boolean | null>(null);
  const selectedId = place.params.get('endpoint');
  const list = endpoints.value ?? [];
  const selected = list.find((e) => e.endpoint_id === selectedId) ?? null;

  const create = async (e: Event) => {
    e.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      const made = await api<WebhookEndpoint & { secret: string }>('POST', '/v1/webhooks', bodyOf(draft));
      setSecret({ title: 'Your endpoint’s signing secret', secret: made.secret });
      setDraft(emptyDraft);
      setAdding(false);
      setNotice({ text: `Added the endpoint ${made.url}.`, at: made.endpoint_id });
      endpoints.reload();
      navigate(withParams(place, { endpoint: made.endpoint_id, delivery: null, state: null }), { replace: true });
    } catch (err) {
      setCreateError(err as Error);
    } finally {
      setCreating(false);
    }
  };

  return (
    <section>
      <ViewHeader
        title="Webhooks"
        lead="The registry posts your wallet's events to these URLs as they happen, each signed with the endpoint's secret (Standard Webhooks), and retries for about three days when a receiver fails."
      />
      <details
        class="panel add-endpoint"
        open={adding ?? endpoints.value?.length === 0}
        onToggle={(e) => setAdding((e.currentTarget as HTMLDetailsElement).open)}
      >
        <summary>
          <h2>Add an endpoint</h2>
        </summary>
        <form class="stack" onSubmit={create} noValidate>
          <EndpointFields id="new" draft={draft} onChange={setDraft} error={createError} />
          <div role="alert">{createError && fieldOf(createError) === null ? <ErrorNote error={createError} /> : null}</div>
          <div class="form-actions">
            <button type="submit" class="button primary" disabled={creating || draft.url.trim() === '' || draft.types.length === 0}>
              {creating ? 'Adding…' : 'Add endpoint'}
            </button>
          </div>
        </form>
      </details>
      <p role="status" class="visually-hidden-empty">
        {notice?.text}
      </p>
      {notice && notice.at === selectedId ? <div class="note note-success">{notice.text}</div> : null}
      <ErrorNote error={endpoints.error} retry={endpoints.reload} />
      {endpoints.value ? (
        list.length === 0 ? (
          <Empty title="No webhook endpoints yet">
            <p>Add one above: a URL of yours that takes a POST. A wallet can have up to 20.</p>
          </Empty>
        ) : (
          <div class="table-wrap panel flush">
            <table>
              <caption class="visually-hidden">Your webhook endpoints</caption>
              <thead>
                <tr>
                  <th scope="col">Endpoint</th>
                  <th scope="col" class="col-events">
                    Events
                  </th>
                  <th scope="col">Status</th>
                </tr>
              </thead>
              <tbody>
                {list.map((e) => (
                  <tr key={e.endpoint_id} aria-selected={e.endpoint_id === selectedId ? 'true' : undefined}>
                    <th scope="row" class="endpoint-cell">
                      <Link href={withParams(place, { endpoint: e.endpoint_id, delivery: null, state: null })} class="mono break">
                        {e.url}
                      </Link>
                      {e.description ? <span class="sub">{e.description}</span> : null}
                    </th>
                    <td class="col-events">{typesText(e)}</td>
                    <td>
                      <EndpointStatus e={e} />
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : endpoints.loading ? (
        <Loading />
      ) : null}
      {selected ? (
        <EndpointPanel
          key={selected.endpoint_id}
          endpoint={selected}
          onChanged={endpoints.reload}
          onDeleted={(m) => {
            setNotice({ text: m, at: null });
            navigate(withParams(place, { endpoint: null, delivery: null, state: null }), { replace: true });
            endpoints.reload();
          }}
          onSecret={setSecret}
        />
      ) : list.length > 0 ? (
        <p class="muted">Choose an endpoint's URL to manage it and see its delivery log.</p>
      ) : null}
      <SecretDialog shown={secret} onClose={() => setSecret(null)} />
    </section>
  );
}
