import { ApiError } from '../api.js';
import { EVENT_TYPES, type EventType, type WebhookEndpoint } from '../types.js';

export const EVENT_LABELS: Record<EventType, string> = {
  'proof.accepted': 'Proof accepted',
  'proof.rejected': 'Submission refused',
  'proof.logged': 'Proof in the transparency log',
  'device.status_changed': 'Device status changed',
  'key.created': 'API key created',
  'key.updated': 'API key renamed, disabled or enabled',
  'key.deleted': 'API key deleted',
};

/** What the form holds: every type ticked means every type, including types added later (event_types null). */
export interface EndpointDraft {
  readonly url: string;
  readonly types: readonly EventType[];
  readonly description: string;
}

export const emptyDraft: EndpointDraft = { url: '', types: EVENT_TYPES, description: '' };

export const draftOf = (e: WebhookEndpoint): EndpointDraft => ({ url: e.url, types: e.event_types ?? EVENT_TYPES, description: e.description ?? '' });

export const bodyOf = (d: EndpointDraft) => ({
  url: d.url.trim(),
  event_types: d.types.length === EVENT_TYPES.length ? null : EVENT_TYPES.filter((t) => d.types.includes(t)),
  description: d.description.trim() === '' ? null : d.description.trim(),
});

type Field = 'url' | 'event_types' | 'description';

/**
 * A 422 about one member (its `path`: "url", "event_types.0", …) belongs next to that field;
 * anything else is shown for the whole form.
 */
export function fieldOf(error: Error | null): Field | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const head = String(error.body['path'] ?? '').split(/[.[]/)[0];
  return head === 'url' || head === 'event_types' || head === 'description' ? head : null;
}

/** URL, event types and description, shared by "Add an endpoint" and "Edit"; ids are prefixed so both can be on the page. */
export function EndpointFields(p: { id: string; draft: EndpointDraft; onChange: (d: EndpointDraft) => void; error: Error | null }) {
  const field = fieldOf(p.error);
  const errorOf = (f: Field) =>
    field === f ? (
      <p id={`${p.id}-${f}-error`} class="field-error" role="alert">
        {p.error?.message}
      </p>
    ) : null;
  const described = (f: Field, hint?: string) => [field === f ? `${p.id}-${f}-error` : null, hint ?? null].filter(Boolean).join(' ') || undefined;
  const toggle = (t: EventType, on: boolean) => p.onChange({ ...p.draft, types: on ? [...p.draft.types, t] : p.draft.types.filter((x) => x !== t) });
  return (
    <div class="endpoint-fields">
      <div class="field">
        <label for={`${p.id}-url`}>Endpoint URL</label>
        <input
          id={`${p.id}-url`}
          type="url"
          inputMode="url"
          required
          maxLength={2000}
          placeholder="https://example.com/hooks/proof-registry"
          value={p.draft.url}
          aria-invalid={field === 'url' ? 'true' : undefined}
          aria-describedby={described('url', `${p.id}-url-hint`)}
          onInput={(e) => p.onChange({ ...p.draft, url: (e.target as HTMLInputElement).value })}
        />
        <p id={`${p.id}-url-hint`} class="hint">
          https (or http), reachable from the registry; private and loopback addresses are refused.
        </p>
        {errorOf('url')}
      </div>
      <fieldset class="field types" aria-describedby={described('event_types', `${p.id}-types-hint`)}>
        <legend>Events to send</legend>
        <ul class="checks-grid">
          {EVENT_TYPES.map((t) => (
            <li key={t}>
              <label>
                <input type="checkbox" checked={p.draft.types.includes(t)} onChange={(e) => toggle(t, (e.target as HTMLInputElement).checked)} />{' '}
                {EVENT_LABELS[t]} <code class="muted">{t}</code>
              </label>
            </li>
          ))}
        </ul>
        <p id={`${p.id}-types-hint`} class="hint">
          {p.draft.types.length === 0 ? 'Choose at least one.' : 'All ticked: every type, including types the registry adds later.'}
        </p>
        {errorOf('event_types')}
      </fieldset>
      <div class="field">
        <label for={`${p.id}-description`}>Description (optional)</label>
        <input
          id={`${p.id}-description`}
          maxLength={500}
          value={p.draft.description}
          aria-invalid={field === 'description' ? 'true' : undefined}
          aria-describedby={described('description')}
          onInput={(e) => p.onChange({ ...p.draft, description: (e.target as HTMLInputElement).value })}
        />
        {errorOf('description')}
      </div>
    </div>
  );
}
