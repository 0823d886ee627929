import { api, query } from '../api.js';
import { ViewHeader } from '../components/layout.js';
import { FirstSteps } from '../components/first-steps.js';
import { Empty, ErrorNote, Link, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { BASE, navigate, usePlace, withParams } from '../router.js';
import type { ProofSummary } from '../types.js';
import { ProofExport } from './proof-export.js';
import { ProofTable } from './proof-table.js';

/** Every filter of GET /v1/proofs, in the URL under the API's own names. */
const TEXT_FILTERS = [
  ['task_id', 'Task id'],
  ['robot_id', 'Robot id'],
  ['run_id', 'Run id'],
  ['topic', 'Topic'],
  ['signer_public_key_b64', 'Signer public key (base64)'],
  ['text', 'Text (in ids and meta)'],
] as const;
const TIME_FILTERS = [
  ['created_after', 'Created at or after'],
  ['created_before', 'Created before'],
] as const;
const ALL = [...TEXT_FILTERS.map(([k]) => k), ...TIME_FILTERS.map(([k]) => k), 'order', 'limit', 'cursor'];

/** An RFC 3339 instant as a datetime-local value in the viewer's time zone, and back. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '';
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}
const fromLocalInput = (value: string): string | null => (value ? new Date(value).toISOString() : null);

export function ProofsPage() {
  const place = usePlace();
  const params = Object.fromEntries(ALL.map((k) => [k, place.params.get(k)]));
  const key = query(params);
  const proofs = useData(() => api<{ items: ProofSummary[]; next_cursor: string | null }>('GET', `/v1/proofs${key}`), key);
  const filtered = ALL.some((k) => k !== 'order' && k !== 'limit' && k !== 'cursor' && params[k]);

  const submit = (e: Event) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget as HTMLFormElement);
    const changes: Record<string, string | null> = { cursor: null };
    for (const [k] of TEXT_FILTERS) changes[k] = String(form.get(k) ?? '').trim() || null;
    for (const [k] of TIME_FILTERS) changes[k] = fromLocalInput(String(form.get(k) ?? ''));
    changes['order'] = form.get('order') === 'asc' ? 'asc' : null;
    navigate(withParams(place, changes));
  };

  return (
    <section>
      <ViewHeader
        title="Proofs"
        lead="Every proof this wallet stored. Filters combine; the address of this page keeps them, so you can share or bookmark a search."
      />
      <form class="panel filters" role="search" aria-label="Filter proofs" onSubmit={submit} key={key}>
        <div class="filter-grid">
          {TEXT_FILTERS.map(([k, label]) => (
            <div class="field" key={k}>
              <label for={`f-${k}`}>{label}</label>
              <input id={`f-${k}`} name={k} defaultValue={params[k] ?? ''} maxLength={1000} />
            </div>
          ))}
          {TIME_FILTERS.map(([k, label]) => (
            <div class="field" key={k}>
              <label for={`f-${k}`}>{label}</label>
              <input id={`f-${k}`} name={k} type="datetime-local" defaultValue={toLocalInput(params[k] ?? null)} />
            </div>
          ))}
          <div class="field">
            <label for="f-order">Order</label>
            <select id="f-order" name="order">
              <option value="desc" selected={params['order'] !== 'asc'}>
                Newest first
              </option>
              <option value="asc" selected={params['order'] === 'asc'}>
                Oldest first
              </option>
            </select>
          </div>
        </div>
        <div class="form-actions">
          <button type="submit" class="button primary">
            Search
          </button>
          {filtered ? <Link href={`${BASE}proofs`}>Clear filters</Link> : null}
        </div>
      </form>
      <ProofExport filters={Object.fromEntries(ALL.filter((k) => k !== 'limit' && k !== 'cursor').map((k) => [k, params[k] ?? null]))} key={key} />
      <ErrorNote error={proofs.error} retry={proofs.reload} />
      {proofs.value ? (
        proofs.value.items.length === 0 ? (
          <>
            <Empty title={filtered ? 'No proof matches these filters' : 'No proofs yet'}>
              {filtered ? (
                <p>Loosen a filter, or clear them all.</p>
              ) : (
                <p>Devices submit proofs with POST /v1/proofs and an API key: the first steps below send one, and it appears here.</p>
              )}
            </Empty>
            {filtered ? null : <FirstSteps />}
          </>
        ) : (
          <div class="panel flush">
            <ProofTable proofs={proofs.value.items} caption="Proofs" />
          </div>
        )
      ) : proofs.loading ? (
        <Loading />
      ) : null}
      <nav class="pager" aria-label="Pages">
        {params['cursor'] ? <Link href={withParams(place, { cursor: null })}>First page</Link> : null}
        {proofs.value?.next_cursor ? <Link href={withParams(place, { cursor: proofs.value.next_cursor })}>Next page</Link> : null}
      </nav>
    </section>
  );
}
