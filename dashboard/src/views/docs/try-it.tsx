import { useState } from 'preact/hooks';
import { credentialHeaders, sessionWallet } from '../../api.js';
import { exampleOf, type OpenApiDocument, type Operation, type Parameter } from './openapi.js';

type Auth = 'session' | 'key' | 'none';

interface Answer {
  readonly status: number;
  readonly statusText: string;
  readonly headers: readonly [string, string][];
  readonly body: string;
}

/** The parameter's example or default when the document gives one: a required one starts with it, an optional one shows it as a hint. */
const startValue = (p: Parameter): string => {
  const s = p.schema;
  const v = 'example' in s ? s['example'] : Array.isArray(s['examples']) ? s['examples'][0] : 'default' in s ? s['default'] : undefined;
  return v === undefined || v === null ? '' : String(v);
};

/** Answers shown past this size are cut: the page stays responsive with a large list. */
const SHOWN_MAX = 200_000;

/**
 * Calls the operation from the page, on this origin: with the signed-in session's token, with
 * an API key pasted here (held in this form's memory only: never stored, gone with the page),
 * or with no credential. Shows the status, the headers and the body as they came.
 */
export function TryIt({ doc, op }: { doc: OpenApiDocument; op: Operation }) {
  const wallet = sessionWallet();
  const id = (op.operationId ?? op.key).replace(/[^A-Za-z0-9_-]/g, '-');
  const fields = op.parameters.filter((p) => p.in === 'path' || p.in === 'query' || p.in === 'header');
  const [values, setValues] = useState<Record<string, string>>(() =>
    Object.fromEntries(
      fields.map((p) => [
        `${p.in}:${p.name}`,
        p.in === 'header' && p.name.toLowerCase() === 'x-wallet-address' ? (wallet ?? '') : p.required ? startValue(p) : '',
      ]),
    ),
  );
  const [body, setBody] = useState(() => (op.body ? JSON.stringify(exampleOf(doc, op.body), null, 2) : ''));
  const [auth, setAuth] = useState<Auth>(op.auth === 'none' ? 'none' : wallet ? 'session' : op.auth === 'api_key' ? 'key' : 'none');
  const [key, setKey] = useState('');
  const [answer, setAnswer] = useState<Answer | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const send = async (e: Event) => {
    e.preventDefault();
    setProblem(null);
    const missing = fields.find((p) => p.required && p.in === 'path' && !values[`path:${p.name}`]);
    if (missing) {
      setProblem(`Fill in ${missing.name}: it is part of the path.`);
      return;
    }
    const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(values[`path:${name}`] ?? ''));
    const q = new URLSearchParams();
    for (const p of fields) if (p.in === 'query' && values[`query:${p.name}`]) q.set(p.name, values[`query:${p.name}`]!);
    const headers: Record<string, string> = { accept: 'application/json' };
    if (auth === 'session') Object.assign(headers, credentialHeaders());
    if (auth === 'key' && key.trim()) headers['authorization'] = `Bearer ${key.trim()}`;
    for (const p of fields) if (p.in === 'header' && values[`header:${p.name}`]) headers[p.name.toLowerCase()] = values[`header:${p.name}`]!;
    const sendsBody = op.body !== null && body.trim() !== '';
    if (sendsBody) headers['content-type'] = 'application/json';
    setBusy(true);
    try {
      const res = await fetch(path + (q.toString() ? `?${q}` : ''), {
        method: op.method.toUpperCase(),
        headers,
        cache: 'no-store',
        ...(sendsBody ? { body } : {}),
      });
      const type = res.headers.get('content-type') ?? '';
      let text: string;
      if (type.includes('text/event-stream')) {
        // A stream never ends by itself: its first answer is enough here.
        await res.body?.cancel();
        text = '(an event stream: it stays open and sends events as they happen; read it with EventSource or curl -N)';
      } else {
        text = await res.text();
        if (type.includes('json') && text) text = JSON.stringify(JSON.parse(text), null, 2);
      }
      setAnswer({
        status: res.status,
        statusText: res.statusText,
        headers: [...res.headers.entries()],
        body: text.length > SHOWN_MAX ? `${text.slice(0, SHOWN_MAX)}\n… (cut: ${text.length} characters in all)` : text,
      });
    } catch (err) {
      setProblem(`The request did not complete: ${(err as Error).message}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="try-it" onSubmit={(e) => void send(e)} aria-label={`Try ${op.method.toUpperCase()} ${op.path}`}>
      <h3>Try it</h3>
      {op.auth !== 'none' ? (
        <fieldset class="try-auth">
          <legend>Credential</legend>
          <label>
            <input type="radio" name={`${id}-auth`} checked={auth === 'session'} disabled={!wallet} onChange={() => setAuth('session')} />
            {wallet ? ' The signed-in session' : ' The signed-in session (sign in first)'}
          </label>
          {op.auth === 'api_key' ? (
            <label>
              <input type="radio" name={`${id}-auth`} checked={auth === 'key'} onChange={() => setAuth('key')} /> An API key
            </label>
          ) : null}
          <label>
            <input type="radio" name={`${id}-auth`} checked={auth === 'none'} onChange={() => setAuth('none')} /> None
          </label>
          {auth === 'key' ? (
            <div class="field">
              <label for={`${id}-key`}>API key (kept in this page's memory only)</label>
              <input id={`${id}-key`} type="password" autocomplete="off" spellcheck={false} value={key} onInput={(e) => setKey(e.currentTarget.value)} />
            </div>
          ) : null}
        </fieldset>
      ) : null}
      {fields.map((p) => (
        <div class="field" key={`${p.in}:${p.name}`}>
          <label for={`${id}-${p.in}-${p.name}`}>
            {p.name}{' '}
            <span class="muted">
              ({p.in}
              {p.required ? ', required' : ''})
            </span>
          </label>
          <input
            id={`${id}-${p.in}-${p.name}`}
            value={values[`${p.in}:${p.name}`] ?? ''}
            // An optional parameter's example is a hint, not a filter sent unasked.
            placeholder={p.required ? undefined : startValue(p) || undefined}
            spellcheck={false}
            onInput={(e) => setValues({ ...values, [`${p.in}:${p.name}`]: e.currentTarget.value })}
          />
        </div>
      ))}
      {op.body ? (
        <div class="field">
          <label for={`${id}-body`}>Body (JSON)</label>
          <textarea
            id={`${id}-body`}
            rows={Math.min(16, body.split('\n').length + 1)}
            spellcheck={false}
            value={body}
            onInput={(e) => setBody(e.currentTarget.value)}
          />
        </div>
      ) : null}
      <button type="submit" class="button primary" disabled={busy}>
        {busy ? 'Sending…' : `Send ${op.method.toUpperCase()}`}
      </button>
      <div role="alert">{problem ? <p class="note note-error">{problem}</p> : null}</div>
      <div aria-live="polite">
        {answer ? (
          <div class="try-answer" data-testid="try-answer">
            <p>
              Status <strong data-testid="try-status">{answer.status}</strong> {answer.statusText}
            </p>
            <details>
              <summary>Headers ({answer.headers.length})</summary>
              <pre class="code-block">{answer.headers.map(([k, v]) => `${k}: ${v}`).join('\n')}</pre>
            </details>
            <pre class="code-block" data-testid="try-body" tabIndex={0} aria-label="Response body">
              {answer.body || '(no body)'}
            </pre>
          </div>
        ) : null}
      </div>
    </form>
  );
}
