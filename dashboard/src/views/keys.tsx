import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { Chart } from '../components/chart.js';
import { ViewHeader } from '../components/layout.js';
import { ConfirmDialog, CopyButton, Empty, ErrorNote, Link, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtAgo, fmtCount, fmtDate, fmtNumber, fmtPercent } from '../format.js';
import { navigate, usePlace, withParams } from '../router.js';
import type { ApiKey } from '../types.js';

interface Usage {
  items: Array<{ day: string; request_count: number; error_count: number }>;
}

/** A new key, held only in this component's state: shown once, stored nowhere. */
interface Created {
  key_id: string;
  name: string;
  key: string;
}

async function allKeys(): Promise<ApiKey[]> {
  const keys: ApiKey[] = [];
  let cursor: string | null = null;
  do {
    const page: { items: ApiKey[]; next_cursor: string | null } = await api('GET', `/v1/keys${query({ limit: 200, cursor })}`);
    keys.push(...page.items);
    cursor = page.next_cursor;
  } while (cursor);
  return keys;
}

function KeyUsage({ keyItem }: { keyItem: ApiKey }) {
  const usage = useData(() => api<Usage>('GET', `/v1/keys/${encodeURIComponent(keyItem.key_id)}/usage${query({ days: 30 })}`), keyItem.key_id);
  return (
    <div class="panel">
      <h2>Requests of “{keyItem.name}”, last 30 days</h2>
      <ErrorNote error={usage.error} retry={usage.reload} />
      {usage.value ? (
        <Chart
          title="Requests and errors per day (UTC)"
          emptyText="No requests with this key in the last 30 days."
          kind="bars"
          x={usage.value.items.map((d) => Date.parse(`${d.day}T00:00:00Z`))}
          timeLabel={(ms) => new Date(ms).toISOString().slice(0, 10)}
          series={[
            { label: 'Requests', color: '--chart-1', values: usage.value.items.map((d) => d.request_count) },
            { label: 'Errors', color: '--chart-error', values: usage.value.items.map((d) => d.error_count) },
          ]}
        />
      ) : usage.loading ? (
        <Loading />
      ) : null}
    </div>
  );
}

export function KeysPage() {
  const place = usePlace();
  const keys = useData(allKeys, 'keys');
  const [name, setName] = useState('');
  const [creating, setCreating] = useState(false);
  const [createError, setCreateError] = useState<Error | null>(null);
  const [created, setCreated] = useState<Created | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [notice, setNotice] = useState('');
  const [deleteError, setDeleteError] = useState<Error | null>(null);
  const selectedId = place.params.get('key');
  const selected = keys.value?.find((k) => k.key_id === selectedId) ?? null;

  const create = async (e: Event) => {
    e.preventDefault();
    setCreating(true);
    setCreateError(null);
    try {
      const made = await api<Created>('POST', '/v1/keys', { name: name.trim() });
      setCreated({ key_id: made.key_id, name: made.name, key: made.key });
      setName('');
      keys.reload();
    } catch (err) {
      setCreateError(err as Error);
    } finally {
      setCreating(false);
    }
  };

  const remove = async (confirmed: boolean) => {
    const target = deleting;
    setDeleting(null);
    if (!confirmed || !target) return;
    setDeleteError(null);
    try {
      await api('DELETE', `/v1/keys/${encodeURIComponent(target.key_id)}`);
      setNotice(`Deleted the key “${target.name}”. Requests made with it are now refused.`);
      if (created?.key_id === target.key_id) setCreated(null);
      if (selectedId === target.key_id) navigate(withParams(place, { key: null }), { replace: true });
      keys.reload();
    } catch (err) {
      setDeleteError(err as Error);
    }
  };

  return (
    <section>
      <ViewHeader title="API keys" lead="Devices and services send an API key with each request. Create one per device or integration, so you can see and revoke each on its own." />
      <div class="panel">
        <h2>Create a key</h2>
        <form class="inline-form" onSubmit={create}>
          <label for="key-name">Name</label>
          <input id="key-name" name="name" required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} placeholder="e.g. warehouse robots" />
          <button type="submit" class="button primary" disabled={creating || name.trim() === ''}>
            {creating ? 'Creating…' : 'Create key'}
          </button>
        </form>
        <div role="alert">
          <ErrorNote error={createError} />
        </div>
        <div aria-live="polite">
          {created ? (
            <div class="note note-success new-key">
              <p>
                <strong>Your new key “{created.name}”.</strong> Copy it now: it will not be shown again, and this page does not keep it.
              </p>
              <div class="command">
                <code class="mono break" data-testid="new-key">
                  {created.key}
                </code>
                <CopyButton text={created.key} label="Copy key" />
              </div>
              <button type="button" class="button small" onClick={() => setCreated(null)}>
                I have stored it
              </button>
            </div>
          ) : null}
        </div>
      </div>
      <p role="status" class="visually-hidden-empty">
        {notice}
      </p>
      <ErrorNote error={deleteError} />
      <ErrorNote error={keys.error} retry={keys.reload} />
      {keys.value ? (
        keys.value.length === 0 ? (
          <Empty title="No API keys yet">
            <p>Create one above, then send it as “Authorization: Bearer &lt;key&gt;” with the header “X-Wallet-Address”.</p>
          </Empty>
        ) : (
          <div class="table-wrap panel flush">
            <table>
              <caption class="visually-hidden">Your API keys</caption>
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Prefix</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col" class="num">
                    Requests
                  </th>
                  <th scope="col" class="num">
                    Errors
                  </th>
                  <th scope="col" class="num">
                    Error rate
                  </th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {keys.value.map((k) => (
                  <tr key={k.key_id} aria-selected={k.key_id === selectedId ? 'true' : undefined}>
                    <th scope="row">
                      <Link href={withParams(place, { key: k.key_id })}>{k.name}</Link>
                    </th>
                    <td class="mono">{k.prefix}…</td>
                    <td>{fmtDate(k.created_at)}</td>
                    <td title={k.last_used_at ?? ''}>{fmtAgo(k.last_used_at)}</td>
                    <td class="num">{fmtNumber(k.request_count)}</td>
                    <td class="num">{fmtNumber(k.error_count)}</td>
                    <td class="num">{fmtPercent(k.error_rate)}</td>
                    <td class="actions">
                      <button type="button" class="button small danger-text" onClick={() => setDeleting(k)} aria-label={`Delete the key ${k.name}`}>
                        Delete
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )
      ) : keys.loading ? (
        <Loading />
      ) : null}
      {selected ? <KeyUsage keyItem={selected} /> : keys.value && keys.value.length > 0 ? <p class="muted">Choose a key's name to see its requests per day.</p> : null}
      <ConfirmDialog open={deleting !== null} title={`Delete the key “${deleting?.name ?? ''}”?`} confirmLabel="Delete key" danger onClose={remove}>
        {deleting ? (
          <p>
            {deleting.last_used_at
              ? `It was last used ${fmtAgo(deleting.last_used_at)} (${fmtDate(deleting.last_used_at)}) and has made ${fmtCount(deleting.request_count, 'request')}.`
              : 'It has not been used yet.'}{' '}
            Anything still using it will get 401 from its next request. This cannot be undone.
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
