import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { fmtNumber } from '../format.js';
import { ErrorNote, Loading } from './ui.js';
import { useData } from './use-data.js';

/** GET /v1/log/key. */
interface LogKey {
  origin: string;
  key_name: string;
  public_key_b64: string;
  vkey: string;
}

/** GET /v1/log/inclusion/{proof_id} (latest checkpoint form). */
interface InclusionAnswer {
  log_index: number;
  tree_size: number;
  leaf_hash: string;
  hashes: string[];
  checkpoint: string;
}

/** The checker is loaded on demand: the log's checks cost the first load nothing. */
const checker = () => import('../log-check.js');

/** GET /v1/log/checkpoint answers text/plain (a signed note), not JSON. */
async function checkpointNote(): Promise<string> {
  const res = await fetch('/v1/log/checkpoint', { headers: { accept: 'text/plain' }, cache: 'no-store' });
  if (!res.ok) {
    const body = (await res.json().catch(() => ({ detail: `the log answered ${res.status}` }))) as { detail?: string };
    const retry = Number(res.headers.get('retry-after'));
    throw new ApiError(res.status, body, Number.isFinite(retry) && retry > 0 ? retry : null);
  }
  return res.text();
}

interface LatestCheckpoint {
  readonly origin: string;
  readonly size: number;
  readonly root: string;
  readonly vkey: string;
  readonly fetchedAt: Date;
}

async function latestCheckpoint(): Promise<LatestCheckpoint> {
  const [key, note, check] = await Promise.all([api<LogKey>('GET', '/v1/log/key'), checkpointNote(), checker()]);
  const opened = await check.openCheckpointHere(note, key.vkey);
  if (!opened.ok) throw new Error(`The log's latest checkpoint does not verify in this browser: ${opened.why}.`);
  return { origin: opened.value.origin, size: opened.value.size, root: check.rootHex(opened.value), vkey: key.vkey, fetchedAt: new Date() };
}

/**
 * The transparency log at a glance: its size and latest checkpoint, whose signature this
 * browser checks with the log's key before showing anything of it.
 */
export function LogCard() {
  const latest = useData(latestCheckpoint, 'log', 30_000);
  const c = latest.value;
  return (
    <div class="panel">
      <h2>Transparency log</h2>
      <p class="muted">Every accepted proof is a leaf of one append-only Merkle log; anyone can check that a proof is in it and that it is never rewritten.</p>
      <ErrorNote error={latest.error} retry={latest.reload} />
      {c ? (
        <dl class="facts log-facts">
          <dt>Tree size</dt>
          <dd data-testid="log-tree-size">{fmtNumber(c.size)}</dd>
          <dt>Origin</dt>
          <dd class="mono break">{c.origin}</dd>
          <dt>Root hash</dt>
          <dd class="mono break">{c.root}</dd>
          <dt>Checkpoint</dt>
          <dd>
            signature verified in this browser; latest as of <time dateTime={c.fetchedAt.toISOString()}>{c.fetchedAt.toLocaleTimeString()}</time>
          </dd>
          <dt>Log key</dt>
          <dd class="mono break">{c.vkey}</dd>
        </dl>
      ) : latest.loading ? (
        <Loading label="Checking the log's latest checkpoint…" />
      ) : null}
    </div>
  );
}

type Inclusion =
  | { readonly state: 'checking' }
  | { readonly state: 'absent' }
  | { readonly state: 'pending'; readonly tries: number }
  | { readonly state: 'verified'; readonly index: number; readonly size: number; readonly root: string; readonly note: string }
  | { readonly state: 'failed'; readonly why: string }
  | { readonly state: 'error'; readonly error: Error };

/** How often, and how many times, the page asks again while no checkpoint covers the proof yet. */
const PENDING_RETRY_MS = 1000;
const PENDING_TRIES = 30;

/**
 * The proof's place in the log, verified here: the inclusion proof from the registry is
 * checked against the root of a checkpoint signed by the log's key. A proof not yet in a
 * checkpoint (one is published about a second after acceptance) is asked about again.
 */
export function LogInclusion({ proofId, logIndex }: { proofId: string; logIndex: number | undefined }) {
  const [result, setResult] = useState<Inclusion>({ state: 'checking' });
  const [round, setRound] = useState(0);
  useEffect(() => {
    let live = true;
    const run = async (): Promise<Inclusion> => {
      // Stored while the registry's log was off: it never gets a leaf, so there is nothing to wait for.
      if (logIndex === undefined) return { state: 'absent' };
      const [key, check] = await Promise.all([api<LogKey>('GET', '/v1/log/key'), checker()]);
      let answer: InclusionAnswer;
      try {
        answer = await api<InclusionAnswer>('GET', `/v1/log/inclusion/${encodeURIComponent(proofId)}`);
      } catch (e) {
        if (e instanceof ApiError && e.status === 404) return { state: 'pending', tries: round + 1 };
        throw e;
      }
      const checked = await check.verifyInclusionHere(answer, key.vkey, proofId);
      if (!checked.ok) return { state: 'failed', why: checked.why };
      if (logIndex !== undefined && logIndex !== answer.log_index)
        return { state: 'failed', why: `the proof says log index ${logIndex}, the log's answer ${answer.log_index}` };
      return { state: 'verified', index: answer.log_index, size: checked.value.size, root: check.rootHex(checked.value), note: answer.checkpoint };
    };
    run().then(
      (r) => live && setResult(r),
      (error: Error) => live && setResult({ state: 'error', error }),
    );
    return () => {
      live = false;
    };
  }, [proofId, logIndex, round]);
  useEffect(() => {
    if (result.state !== 'pending' || result.tries >= PENDING_TRIES) return;
    const timer = setTimeout(() => setRound((n) => n + 1), PENDING_RETRY_MS);
    return () => clearTimeout(timer);
  }, [result]);
  const again = () => {
    setResult({ state: 'checking' });
    setRound((n) => n + 1);
  };
  return (
    <div class="panel">
      <h2>Transparency log</h2>
      <dl class="facts">
        <dt>Log index</dt>
        <dd>{logIndex === undefined ? '—' : fmtNumber(logIndex)}</dd>
      </dl>
      <div role="status" class="log-inclusion">
        {result.state === 'checking' ? (
          <p class="loading">Checking the proof's inclusion in the log…</p>
        ) : result.state === 'absent' ? (
          <p>The registry gave this proof no log index: it is not in the transparency log (it was stored while the log was off).</p>
        ) : result.state === 'pending' ? (
          <p>
            <span class="verdict pending">Not in a checkpoint yet.</span> The log publishes a checkpoint within about a second of a proof's acceptance
            {result.tries < PENDING_TRIES ? '; asking again…' : '.'}
          </p>
        ) : result.state === 'verified' ? (
          <>
            <p>
              <span class="verdict ok" data-testid="log-verdict">
                Included in the log at index {fmtNumber(result.index)} of tree size {fmtNumber(result.size)} — verified in this browser.
              </span>
            </p>
            <p class="muted">
              The inclusion proof leads to root <span class="mono break">{result.root}</span> of a checkpoint whose signature by the log's key was checked here.
            </p>
          </>
        ) : result.state === 'failed' ? (
          <p>
            <span class="verdict bad" data-testid="log-verdict">
              Not verified: {result.why}.
            </span>
          </p>
        ) : null}
      </div>
      {result.state === 'error' ? <ErrorNote error={result.error} retry={again} /> : null}
      <CheckpointWitnesses note={result.state === 'verified' ? result.note : null} />
      {result.state === 'failed' || (result.state === 'pending' && result.tries >= PENDING_TRIES) ? (
        <button type="button" class="button small" onClick={again}>
          Check again
        </button>
      ) : null}
    </div>
  );
}

/** GET /v1/log/witnesses. */
interface WitnessList {
  quorum: number;
  witnesses: { name: string; url: string; last_cosigned_size: number | null; last_cosigned_at: string | null; last_error: string | null }[];
}

/** The key names of a signed note's signature lines (`— <name> <base64>`), the log's own included. */
function signatureNames(note: string): Set<string> {
  const at = note.indexOf('\n\n');
  const lines = at < 0 ? [] : note.slice(at + 2).split('\n');
  return new Set(lines.map((line) => /^\u2014 (\S+) \S+$/.exec(line)?.[1]).filter((name): name is string => name !== undefined));
}

/**
 * The witnesses that cosigned the checkpoint the proof was checked against, as the registry
 * reports them: the names of the note's signature lines that are witnesses of its policy
 * (their signatures are not checked here).
 */
export function CheckpointWitnesses({ note }: { note: string | null }) {
  const list = useData(() => api<WitnessList>('GET', '/v1/log/witnesses'), 'witnesses');
  const l = list.value;
  if (list.error) return <ErrorNote error={list.error} retry={list.reload} />;
  if (!l) return null;
  if (l.witnesses.length === 0)
    return (
      <p class="muted" data-testid="log-witnesses">
        No witnesses configured.
      </p>
    );
  if (note === null) return null;
  const signed = signatureNames(note);
  const cosigned = l.witnesses.filter((w) => signed.has(w.name)).map((w) => w.name);
  return (
    <p data-testid="log-witnesses">
      Witnesses: {cosigned.length} of {l.witnesses.length} witnesses, quorum {l.quorum}
      {cosigned.length > 0 ? <> — cosigned by {cosigned.join(', ')}</> : null}{' '}
      <span class="muted">(as reported by the registry: the cosignatures are not checked in this browser).</span>
    </p>
  );
}
