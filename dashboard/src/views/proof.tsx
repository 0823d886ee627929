import { useState } from 'preact/hooks';
import { api, ApiError, credentialHeaders, refusal } from '../api.js';
import { ViewHeader } from '../components/layout.js';
import { LogInclusion } from '../components/log-panels.js';
import { CopyButton, ErrorNote, Link, Loading } from '../components/ui.js';
import { useData } from '../components/use-data.js';
import { fmtDate } from '../format.js';
import { BASE } from '../router.js';
import type { ProofSummary, Verification } from '../types.js';
import { Checks } from './checks.js';

interface ProofRecord extends ProofSummary {
  envelope: unknown;
  /** The proof's leaf in the transparency log, where the registry keeps one. */
  log_index?: number;
}
interface Score {
  score: number;
  components: Record<string, number>;
  reasons: Record<string, string>;
  policy: string;
}

export function ProofPage({ proofId }: { proofId: string }) {
  const proof = useData(() => api<ProofRecord>('GET', `/v1/proofs/${encodeURIComponent(proofId)}`), proofId);
  const envelope = proof.value?.envelope;
  const report = useData(
    () => (envelope === undefined ? Promise.resolve(null) : api<Verification>('POST', '/v1/verify', { envelope })),
    `${proofId} ${envelope !== undefined}`,
  );
  const score = useData(() => api<Score>('POST', '/v1/score', { proof_id: proofId }), proofId);
  if (proof.error instanceof ApiError && proof.error.status === 404) {
    return (
      <section>
        <ViewHeader title="Proof not found" lead="This wallet has no proof with this id." />
        <Link href={`${BASE}proofs`}>Back to the proofs</Link>
      </section>
    );
  }
  const p = proof.value;
  // Shown as text in a <pre>: the envelope is the submitter's, never markup.
  const json = p ? JSON.stringify(p.envelope, null, 2) : '';
  return (
    <section>
      <p class="breadcrumb">
        <Link href={`${BASE}proofs`}>Proofs</Link> / <span class="mono">{proofId.slice(0, 12)}…</span>
      </p>
      <ViewHeader title={p ? `Proof of ${p.task_id}` : 'Proof'} />
      <ErrorNote error={proof.error} retry={proof.reload} />
      {!p ? (
        proof.loading ? (
          <Loading />
        ) : null
      ) : (
        <>
          <div class="panel">
            <dl class="facts">
              <dt>Proof id</dt>
              <dd class="mono break">{p.proof_id}</dd>
              <dt>Task</dt>
              <dd>{p.task_id}</dd>
              <dt>Robot</dt>
              <dd>{p.robot_id ? <Link href={`${BASE}fleet/devices/${encodeURIComponent(p.robot_id)}`}>{p.robot_id}</Link> : '—'}</dd>
              <dt>Run</dt>
              <dd>{p.run_id ?? '—'}</dd>
              <dt>Created</dt>
              <dd title={p.created_at}>{fmtDate(p.created_at)}</dd>
              <dt>Received</dt>
              <dd title={p.received_at}>{fmtDate(p.received_at)}</dd>
              <dt>Signer</dt>
              <dd class="mono break">{p.signer_public_key_b64}</dd>
              <dt>Topics</dt>
              <dd>{p.topics.join(', ') || '—'}</dd>
            </dl>
          </div>
          <div class="two-col">
            <div class="panel">
              <h2>Verification</h2>
              <ErrorNote error={report.error} retry={report.reload} />
              {report.value ? <Checks report={report.value} /> : <Loading />}
            </div>
            <div class="panel">
              <h2>Score</h2>
              <ErrorNote error={score.error} retry={score.reload} />
              {score.value ? (
                <>
                  <p class="score">
                    <span class="stat-value">{score.value.score.toFixed(3)}</span> <span class="muted">policy {score.value.policy}</span>
                  </p>
                  <table>
                    <caption class="visually-hidden">Score components</caption>
                    <thead>
                      <tr>
                        <th scope="col">Component</th>
                        <th scope="col" class="num">
                          Value
                        </th>
                        <th scope="col">Reason</th>
                      </tr>
                    </thead>
                    <tbody>
                      {Object.entries(score.value.components).map(([name, value]) => (
                        <tr key={name}>
                          <th scope="row">{name}</th>
                          <td class="num">{value.toFixed(3)}</td>
                          <td>{score.value!.reasons[name] ?? ''}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </>
              ) : score.loading ? (
                <Loading />
              ) : null}
            </div>
          </div>
          <LogInclusion proofId={p.proof_id} logIndex={p.log_index} />
          <BundleDownload proofId={p.proof_id} />
          <div class="panel">
            <div class="panel-header">
              <h2>Envelope</h2>
              <CopyButton text={json} label="Copy JSON" />
            </div>
            <pre class="json" tabIndex={0} aria-label="Envelope JSON">
              {json}
            </pre>
          </div>
        </>
      )}
    </section>
  );
}

type BundleState =
  { readonly state: 'idle' | 'busy' } | { readonly state: 'not-in-log'; readonly detail: string } | { readonly state: 'error'; readonly error: Error };

/** Saves bytes under a name through an object URL and an <a download> (no inline script: the page's CSP allows none). */
function save(bytes: ArrayBuffer, name: string): void {
  const url = URL.createObjectURL(new Blob([bytes], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = name;
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * The proof's bundle (GET /v1/proofs/{id}/bundle) saved as a file, its bytes exactly as the
 * registry sent them: a verifier refuses any change. Before a checkpoint covers the proof,
 * the registry's word for it.
 */
function BundleDownload({ proofId }: { proofId: string }) {
  const [result, setResult] = useState<BundleState>({ state: 'idle' });
  const download = async () => {
    setResult({ state: 'busy' });
    try {
      const res = await fetch(`/v1/proofs/${encodeURIComponent(proofId)}/bundle`, {
        headers: { accept: 'application/json', ...credentialHeaders() },
        cache: 'no-store',
      });
      if (!res.ok) {
        const error = await refusal(res);
        setResult(error.status === 404 && error.body.code === 'not_in_log' ? { state: 'not-in-log', detail: error.message } : { state: 'error', error });
        return;
      }
      save(await res.arrayBuffer(), `${proofId}.bundle.json`);
      setResult({ state: 'idle' });
    } catch (e) {
      setResult({ state: 'error', error: e instanceof Error ? e : new Error(String(e)) });
    }
  };
  return (
    <div class="panel">
      <h2>Proof bundle</h2>
      <p class="muted">The envelope, its inclusion proof and the cosigned checkpoint in one file, to verify offline.</p>
      {result.state === 'not-in-log' ? (
        <div role="status">
          <p data-testid="bundle-not-in-log">{result.detail}</p>
          <button type="button" class="button small" onClick={() => void download()}>
            Try again
          </button>
        </div>
      ) : (
        <button type="button" class="button small" onClick={() => void download()} disabled={result.state === 'busy'}>
          Download proof bundle
        </button>
      )}
      {result.state === 'error' ? <ErrorNote error={result.error} /> : null}
    </div>
  );
}
