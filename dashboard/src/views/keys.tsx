import { useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { FirstProof } from '../components/first-steps.js';
import { ViewHeader } from '../components/layout.js';
import { ConfirmDialog, CopyButton, Empty, ErrorNote, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtAgo, fmtCount, fmtDate } from '../format.js';
import { navigate, usePlace, withParams } from '../router.js';
import { loadSession } from '../session.js';
import type { ApiKey, CreatedKey, KeyInfo } from '../types.js';
import { KeyForm } from './key-form.js';
import { bindingText, expiryText, presetOf } from './key-grants.js';
import { KeyTable, RenameDialog } from './key-list.js';
import { KeyUsagePanel } from './key-usage.js';

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

/** What a new key may do, spelled out once: "Robot (proofs:write, health:write) · bound to arm-1 · never expires". */
function grantLine(k: KeyInfo): string {
  const preset = presetOf(k.scopes);
  const scopes = k.scopes.join(', ');
  const access = preset === null ? scopes : `${preset.label} (${preset.id === 'full' ? 'every scope' : scopes})`;
  return [access, k.robot_ids === null ? 'for any robot' : `bound to ${bindingText(k, 10)}`, expiryText(k)].join(' · ');
}

/** The new key, held only in this state while its panel shows: stored nowhere. */
function NewKey({ created, onDone }: { created: CreatedKey; onDone: () => void }) {
  const wallet = loadSession()?.wallet ?? '';
  return (
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
      <p class="muted" data-testid="new-key-grant">
        {grantLine(created)}
      </p>
      <p>A device sends it with this wallet’s full address:</p>
      <div class="command">
        <code class="mono break" data-testid="new-key-wallet">
          {wallet}
        </code>
        <CopyButton text={wallet} label="Copy wallet address" />
      </div>
      <h3>Send a first proof with it</h3>
      <FirstProof wallet={wallet} apiKey={created.key} idPrefix="new-key-proof" />
      <button type="button" class="button small" onClick={onDone}>
        I have stored it
      </button>
    </div>
  );
}

export function KeysPage() {
  const place = usePlace();
  const keys = useData(allKeys, 'keys');
  const [created, setCreated] = useState<CreatedKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKey | null>(null);
  const [renaming, setRenaming] = useState<ApiKey | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [actionError, setActionError] = useState<Error | null>(null);
  const selectedId = place.params.get('key');
  const selected = keys.value?.find((k) => k.key_id === selectedId) ?? null;

  const onCreated = (made: CreatedKey) => {
    setCreated(made);
    setNotice('');
    keys.reload();
  };

  const patch = (k: KeyInfo, body: { name?: string; enabled?: boolean }) => api<KeyInfo>('PATCH', `/v1/keys/${encodeURIComponent(k.key_id)}`, body);

  const rename = async (k: KeyInfo, name: string) => {
    const saved = await patch(k, { name });
    setRenaming(null);
    setNotice(`Renamed the key “${k.name}” to “${saved.name}”.`);
    keys.reload();
  };

  const setEnabled = async (k: ApiKey, enabled: boolean) => {
    setBusyId(k.key_id);
    setActionError(null);
    try {
      const saved = await patch(k, { enabled });
      setNotice(
        enabled
          ? `Enabled the key “${k.name}”${saved.status === 'expired' ? ', but it has expired: it is still refused' : ': it works again'}.`
          : `Disabled the key “${k.name}”: requests made with it get 401 until you enable it again.`,
      );
      keys.reload();
    } catch (err) {
      setActionError(err as Error);
    } finally {
      setBusyId(null);
    }
  };

  const remove = async (confirmed: boolean) => {
    const target = deleting;
    setDeleting(null);
    if (!confirmed || !target) return;
    setActionError(null);
    try {
      await api('DELETE', `/v1/keys/${encodeURIComponent(target.key_id)}`);
      setNotice(`Deleted the key “${target.name}”. Requests made with it are now refused.`);
      if (created?.key_id === target.key_id) setCreated(null);
      if (selectedId === target.key_id) navigate(withParams(place, { key: null }), { replace: true });
      keys.reload();
    } catch (err) {
      setActionError(err as Error);
    }
  };

  return (
    <section>
      <ViewHeader
        title="API keys"
        lead="Devices and services send an API key with each request. Create one per device or integration, with only what it needs, so you can see, disable and revoke each on its own."
      />
      <div class="panel">
        <h2>Create a key</h2>
        <KeyForm onCreated={onCreated} />
        <div aria-live="polite">{created ? <NewKey created={created} onDone={() => setCreated(null)} /> : null}</div>
      </div>
      <div role="status">{notice ? <p class="note note-success">{notice}</p> : null}</div>
      <ErrorNote error={actionError} />
      <ErrorNote error={keys.error} retry={keys.reload} />
      {keys.value ? (
        keys.value.length === 0 ? (
          <Empty title="No API keys yet">
            <p>Create one above, then send it as “Authorization: Bearer &lt;key&gt;” with the header “X-Wallet-Address”.</p>
          </Empty>
        ) : (
          <KeyTable
            keys={keys.value}
            place={place}
            selectedId={selectedId}
            busyId={busyId}
            actions={{ rename: setRenaming, setEnabled, remove: setDeleting }}
          />
        )
      ) : keys.loading ? (
        <Loading />
      ) : null}
      {selected ? (
        <KeyUsagePanel key={selected.key_id} keyItem={selected} />
      ) : keys.value && keys.value.length > 0 ? (
        <p class="muted">Choose a key's name to see its requests per day and per endpoint.</p>
      ) : null}
      <RenameDialog target={renaming} onSave={rename} onClose={() => setRenaming(null)} />
      <ConfirmDialog open={deleting !== null} title={`Delete the key “${deleting?.name ?? ''}”?`} confirmLabel="Delete key" danger onClose={remove}>
        {deleting ? (
          <p>
            {deleting.last_used_at
              ? `It was last used ${fmtAgo(deleting.last_used_at)} (${fmtDate(deleting.last_used_at)}) and has made ${fmtCount(deleting.request_count, 'request')}.`
              : 'It has not been used yet.'}{' '}
            Anything still using it will get 401 from its next request. This cannot be undone.
            {deleting.enabled ? ' To stop it for a while instead, disable it.' : ''}
          </p>
        ) : null}
      </ConfirmDialog>
    </section>
  );
}
