import { useState } from 'preact/hooks';
import { credentialHeaders, query, refusal } from '../api.js';
import { ErrorNote } from '../components/ui.js';

type Format = 'csv' | 'jsonl';

type ExportState =
  | { readonly state: 'idle' }
  | { readonly state: 'busy'; readonly format: Format; readonly rows: number }
  | {
      readonly state: 'done';
      readonly format: Format;
      readonly rows: number;
      readonly name: string;
      readonly cap: number;
      readonly next: string | null;
      readonly head: string;
    }
  | { readonly state: 'error'; readonly error: Error };

/** The first lines of the file shown under the buttons, so the export can be checked at a glance. */
const HEAD_LINES = 6;
const LINE_FEED = 10;
const QUOTE = 34;

/**
 * Exports the proofs of the page's search (GET /v1/proofs/export, every filter applied) as CSV
 * or JSON Lines: the answer is read as it streams, counted, and saved as a file through an
 * object URL (no inline script: the page's CSP allows none). An export holds at most the
 * service's cap; when more proofs match, the next export continues where this one ended.
 */
export function ProofExport({ filters }: { filters: Record<string, string | null> }) {
  const [result, setResult] = useState<ExportState>({ state: 'idle' });
  const run = async (format: Format, cursor: string | null) => {
    setResult({ state: 'busy', format, rows: 0 });
    try {
      const res = await fetch(`/v1/proofs/export${query({ ...filters, format, cursor })}`, { headers: credentialHeaders(), cache: 'no-store' });
      if (!res.ok || !res.body) throw await refusal(res);
      const parts: BlobPart[] = [];
      const records = recordCounter(format);
      const reader = res.body.getReader();
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
        parts.push(chunk.value as Uint8Array<ArrayBuffer>);
        setResult({ state: 'busy', format, rows: records.add(chunk.value) });
      }
      const rows = records.add(new Uint8Array(0));
      const blob = new Blob(parts, { type: res.headers.get('content-type') ?? 'text/plain' });
      const name = /filename="([^"]+)"/.exec(res.headers.get('content-disposition') ?? '')?.[1] ?? `proofs.${format}`;
      save(blob, name);
      const head = (await blob.slice(0, 4096).text()).split('\n').slice(0, HEAD_LINES).join('\n');
      setResult({
        state: 'done',
        format,
        rows,
        name,
        cap: Number(res.headers.get('x-export-limit')),
        next: res.headers.get('x-next-cursor'),
        head,
      });
    } catch (error) {
      setResult({ state: 'error', error: error as Error });
    }
  };
  const busy = result.state === 'busy';
  return (
    <div class="panel export" aria-labelledby="export-title">
      <h2 id="export-title">Export</h2>
      <p class="muted">The proofs of this search, every filter applied, as a file: up to 100,000 proofs an export; a larger search continues in the next.</p>
      <div class="form-actions">
        <button type="button" class="button" disabled={busy} onClick={() => void run('csv', null)}>
          Export CSV
        </button>
        <button type="button" class="button" disabled={busy} onClick={() => void run('jsonl', null)}>
          Export JSONL
        </button>
      </div>
      <div role="status" aria-live="polite">
        {result.state === 'busy' ? <p>Exporting… {result.rows.toLocaleString('en')} proofs so far.</p> : null}
        {result.state === 'done' ? <ExportDone result={result} continueWith={(cursor) => void run(result.format, cursor)} /> : null}
      </div>
      {result.state === 'error' ? <ErrorNote error={result.error} /> : null}
    </div>
  );
}

function ExportDone({ result, continueWith }: { result: Extract<ExportState, { state: 'done' }>; continueWith: (cursor: string) => void }) {
  return (
    <>
      <p data-testid="export-done">
        Saved {result.rows.toLocaleString('en')} {result.rows === 1 ? 'proof' : 'proofs'} to <code>{result.name}</code>.
        {result.next === null
          ? ' That is every proof of this search.'
          : ` An export holds at most ${result.cap.toLocaleString('en')} proofs, and more match this search.`}
      </p>
      {result.next !== null ? (
        <button type="button" class="button small" onClick={() => continueWith(result.next!)}>
          Export the next proofs
        </button>
      ) : null}
      <p class="muted">The file begins:</p>
      <pre class="export-head" tabIndex={0} aria-label={`The first lines of ${result.name}`}>
        {result.head}
      </pre>
    </>
  );
}

/**
 * Counts the proofs of an export as its bytes arrive: one per line of JSON Lines (a line feed
 * never appears inside a JSON string); in CSV, one per line feed outside quotes (a quoted
 * field may hold line breaks; a doubled quote toggles twice), less the header.
 */
function recordCounter(format: Format): { add(bytes: Uint8Array): number } {
  let lines = 0;
  let quoted = false;
  return {
    add(bytes) {
      if (format === 'jsonl') {
        for (let i = bytes.indexOf(LINE_FEED); i !== -1; i = bytes.indexOf(LINE_FEED, i + 1)) lines++;
        return lines;
      }
      for (const b of bytes) {
        if (b === QUOTE) quoted = !quoted;
        else if (b === LINE_FEED && !quoted) lines++;
      }
      return Math.max(0, lines - 1);
    },
  };
}

/** Saves a file through an object URL and an <a download>. */
function save(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
