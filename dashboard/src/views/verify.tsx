import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { ViewHeader } from '../components/layout.js';
import { ErrorNote } from '../components/ui.js';
import { shortId } from '../format.js';
import type { Verification } from '../types.js';

interface Batch {
  results: Array<Verification & { index: number }>;
  total: number;
  valid_count: number;
  invalid_count: number;
}

/** Envelopes from pasted or dropped text: one JSON envelope, a JSON array of them, `{envelope}` bodies, or JSON Lines. */
export function parseEnvelopes(text: string): unknown[] {
  const trimmed = text.trim();
  if (trimmed === '') throw new Error('Paste or drop at least one envelope.');
  const unwrap = (v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) && 'envelope' in v && Object.keys(v).length === 1 ? (v as { envelope: unknown }).envelope : v;
  try {
    const value = JSON.parse(trimmed) as unknown;
    return (Array.isArray(value) ? value : [value]).map(unwrap);
  } catch {
    return trimmed
      .split(/\r?\n/)
      .filter((l) => l.trim() !== '')
      .map((line, i) => {
        try {
          return unwrap(JSON.parse(line));
        } catch {
          throw new Error(`Line ${i + 1} is not JSON: give one envelope, a JSON array of envelopes, or one envelope per line.`);
        }
      });
  }
}

export function VerifyPage() {
  const [text, setText] = useState('');
  const [result, setResult] = useState<Batch | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [busy, setBusy] = useState(false);
  const [dragging, setDragging] = useState(false);

  const verify = async (e?: Event) => {
    e?.preventDefault();
    setError(null);
    setResult(null);
    let envelopes: unknown[];
    try {
      envelopes = parseEnvelopes(text);
    } catch (err) {
      setError(err as Error);
      return;
    }
    setBusy(true);
    try {
      setResult(await api<Batch>('POST', '/v1/verify/batch', { envelopes }));
    } catch (err) {
      setError(err as Error);
    } finally {
      setBusy(false);
    }
  };

  const drop = async (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length === 0) return;
    const texts = await Promise.all(files.map((f) => f.text()));
    setText(texts.map((t) => t.trim()).join('\n'));
  };

  return (
    <section>
      <ViewHeader title="Verify envelopes" lead="Check signed envelopes without storing them: paste them, or drop files here. Nothing is kept." />
      <form class="panel" onSubmit={verify}>
        <label for="envelopes">Envelopes (one JSON envelope, a JSON array, or one per line; up to 1,000)</label>
        <textarea
          id="envelopes"
          class={dragging ? 'dropzone dragging' : 'dropzone'}
          rows={12}
          spellcheck={false}
          value={text}
          onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
          onDragOver={(e) => (e.preventDefault(), setDragging(true))}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
          placeholder='{"payload": {…}, "signer_public_key_b64": "…", "signature_b64": "…"}'
        />
        <div class="form-actions">
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? 'Verifying…' : 'Verify'}
          </button>
        </div>
      </form>
      <div role="alert">
        <ErrorNote error={error} />
      </div>
      <div aria-live="polite">
        {result ? (
          <div class="panel flush">
            <p class="pad summary-line">
              {result.total} envelope{result.total === 1 ? '' : 's'}: <strong>{result.valid_count} valid</strong>,{' '}
              <strong>{result.invalid_count} invalid</strong>.
            </p>
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Verification results</caption>
                <thead>
                  <tr>
                    <th scope="col">#</th>
                    <th scope="col">Verdict</th>
                    <th scope="col">Proof id</th>
                    <th scope="col">Reason</th>
                  </tr>
                </thead>
                <tbody>
                  {result.results.map((r) => (
                    <tr key={r.index}>
                      <th scope="row">{r.index + 1}</th>
                      <td>
                        <span class={r.valid ? 'badge badge-online' : 'badge badge-error'}>{r.valid ? 'valid' : 'invalid'}</span>
                      </td>
                      <td class="mono" title={r.proof_id ?? ''}>
                        {r.proof_id ? shortId(r.proof_id) : '—'}
                      </td>
                      <td>{r.reason ?? '—'}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </div>
        ) : null}
      </div>
    </section>
  );
}
