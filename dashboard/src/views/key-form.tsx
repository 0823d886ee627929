import { useState } from 'preact/hooks';
import { api, ApiError, query } from '../api.js';
import { ErrorNote } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtCount } from '../format.js';
import { SCOPES, type CreatedKey, type Fleet, type Scope } from '../types.js';
import { MAX_BOUND, parseIds, PRESETS, ROBOT_SCOPES, SCOPE_MEANINGS, type PresetId } from './key-grants.js';

type Field = 'name' | 'scopes' | 'robot_ids' | 'expires_at';
const FIELDS: readonly string[] = ['name', 'scopes', 'robot_ids', 'expires_at'];

/** A 422 about one member (its `path`) is shown next to that field; anything else for the whole form. */
function fieldOf(error: Error | null): Field | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const head = String(error.body['path'] ?? '').split(/[.[]/)[0] ?? '';
  return FIELDS.includes(head) ? (head as Field) : null;
}

/** Beyond this many, typing an id is quicker than finding its box. */
const OFFERED = 24;

const knownDevices = () => api<Fleet>('GET', `/v1/fleet${query({ limit: 200 })}`).then((f) => f.devices.map((d) => d.device_id));

/** datetime-local holds the viewer's local time without a zone; the API takes RFC 3339. */
function rfc3339(local: string): string {
  const ms = new Date(local).getTime();
  // Sent as typed when unreadable, so the registry's refusal says what is wrong with it.
  return Number.isNaN(ms) ? local : new Date(ms).toISOString();
}

/** Now as a datetime-local value, so the picker starts at today. */
const localNow = () => {
  const d = new Date();
  return new Date(d.getTime() - d.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

const scopeId = (s: Scope) => `scope-${s.replace(':', '-')}`;

/** "Create a key": a preset or scopes of one's choosing, optionally bound to devices and with an expiry. */
export function KeyForm({ onCreated }: { onCreated: (k: CreatedKey) => void }) {
  const [name, setName] = useState('');
  const [preset, setPreset] = useState<PresetId>('robot');
  const [custom, setCustom] = useState<readonly Scope[]>([]);
  const [robots, setRobots] = useState('');
  const [expires, setExpires] = useState('');
  const [creating, setCreating] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const chosen = PRESETS.find((p) => p.id === preset) ?? PRESETS[0]!;
  const scopes = preset === 'custom' ? SCOPES.filter((s) => custom.includes(s)) : chosen.scopes;
  // A binding holds the key only on calls that speak for a robot: offered only where it means something.
  const bindable = scopes === null || scopes.some((s) => ROBOT_SCOPES.includes(s));
  const ids = bindable ? parseIds(robots) : [];
  const fleet = useData(() => (bindable ? knownDevices() : Promise.resolve([])), bindable ? 'fleet' : 'none');
  const known = fleet.value ?? [];
  const field = fieldOf(error);

  const submit = async (e: Event) => {
    e.preventDefault();
    setCreating(true);
    setError(null);
    try {
      const made = await api<CreatedKey>('POST', '/v1/keys', {
        name: name.trim(),
        ...(scopes !== null ? { scopes } : {}),
        ...(ids.length > 0 ? { robot_ids: ids } : {}),
        ...(expires !== '' ? { expires_at: rfc3339(expires) } : {}),
      });
      onCreated(made);
      setName('');
      setRobots('');
      setExpires('');
    } catch (err) {
      setError(err as Error);
    } finally {
      setCreating(false);
    }
  };

  const errorOf = (f: Field) =>
    field === f ? (
      <p id={`key-${f}-error`} class="field-error" role="alert">
        {error?.message}
      </p>
    ) : null;
  const described = (f: Field, hint?: string) => [field === f ? `key-${f}-error` : null, hint ?? null].filter(Boolean).join(' ') || undefined;
  const tick = (s: Scope, on: boolean) => setCustom((c) => (on ? [...c, s] : c.filter((x) => x !== s)));
  const pick = (id: string, on: boolean) => setRobots((on ? [...ids, id] : ids.filter((x) => x !== id)).join(', '));

  return (
    <form class="key-form" onSubmit={submit} noValidate>
      <div class="field key-name">
        <label for="key-name">Name</label>
        <input
          id="key-name"
          name="name"
          required
          maxLength={100}
          value={name}
          placeholder="e.g. warehouse robots"
          aria-invalid={field === 'name' ? 'true' : undefined}
          aria-describedby={described('name')}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
        {errorOf('name')}
      </div>
      <fieldset class="types" aria-describedby={described('scopes')}>
        <legend>What it may do</legend>
        <ul class="presets">
          {PRESETS.map((p) => (
            <li key={p.id} class={p.id === preset ? 'preset chosen' : 'preset'}>
              <input
                type="radio"
                id={`preset-${p.id}`}
                name="key-preset"
                value={p.id}
                checked={p.id === preset}
                aria-describedby={`preset-${p.id}-meaning`}
                onChange={() => setPreset(p.id)}
              />
              <label for={`preset-${p.id}`}>{p.label}</label>
              <p id={`preset-${p.id}-meaning`} class="hint">
                {p.meaning}
              </p>
            </li>
          ))}
        </ul>
        {preset === 'custom' ? (
          <>
            <ul class="checks-grid scope-list">
              {SCOPES.map((s) => (
                <li key={s}>
                  <input
                    type="checkbox"
                    id={scopeId(s)}
                    checked={custom.includes(s)}
                    aria-describedby={`${scopeId(s)}-meaning`}
                    onChange={(e) => tick(s, (e.target as HTMLInputElement).checked)}
                  />
                  <label for={scopeId(s)}>
                    <code>{s}</code>
                  </label>
                  <span id={`${scopeId(s)}-meaning`} class="hint">
                    {SCOPE_MEANINGS[s]}
                  </span>
                </li>
              ))}
            </ul>
            {custom.length === 0 ? <p class="hint">Tick at least one scope.</p> : null}
          </>
        ) : null}
        {errorOf('scopes')}
      </fieldset>
      {bindable ? (
        <div class="field key-robots">
          <label for="key-robots">Bound to devices (optional)</label>
          <textarea
            id="key-robots"
            rows={2}
            value={robots}
            placeholder="e.g. arm-1, arm-2"
            aria-invalid={field === 'robot_ids' ? 'true' : undefined}
            aria-describedby={described('robot_ids', 'key-robots-hint')}
            onInput={(e) => setRobots((e.target as HTMLTextAreaElement).value)}
          />
          <p id="key-robots-hint" class="hint">
            Device ids, separated by commas or line breaks (up to {MAX_BOUND.toLocaleString()}): the key then submits proofs and reports health for these only.
            Empty: any robot.
            {ids.length > 0 ? ` ${fmtCount(ids.length, 'device')} named.` : ''}
          </p>
          {errorOf('robot_ids')}
          {known.length > 0 ? (
            <fieldset class="types known-devices">
              <legend>Devices in your fleet</legend>
              <ul class="device-picks">
                {known.slice(0, OFFERED).map((id) => (
                  <li key={id}>
                    <label>
                      <input type="checkbox" checked={ids.includes(id)} onChange={(e) => pick(id, (e.target as HTMLInputElement).checked)} />{' '}
                      <span class="mono">{id}</span>
                    </label>
                  </li>
                ))}
              </ul>
              {known.length > OFFERED ? <p class="hint">And {fmtCount(known.length - OFFERED, 'more device')}: type their ids above.</p> : null}
            </fieldset>
          ) : null}
        </div>
      ) : null}
      <div class="field key-expiry">
        <label for="key-expires">Expires (optional)</label>
        <input
          id="key-expires"
          type="datetime-local"
          value={expires}
          min={localNow()}
          aria-invalid={field === 'expires_at' ? 'true' : undefined}
          aria-describedby={described('expires_at', 'key-expires-hint')}
          onInput={(e) => setExpires((e.target as HTMLInputElement).value)}
        />
        <p id="key-expires-hint" class="hint">
          In your local time. Empty: the key does not expire.
        </p>
        {errorOf('expires_at')}
      </div>
      <div role="alert">{error && field === null ? <ErrorNote error={error} /> : null}</div>
      <div class="form-actions">
        <button type="submit" class="button primary" disabled={creating || name.trim() === '' || scopes?.length === 0}>
          {creating ? 'Creating…' : 'Create key'}
        </button>
      </div>
    </form>
  );
}
