import { useState } from 'preact/hooks';
import { ViewHeader } from '../../components/layout.js';
import { ErrorNote, Link, Loading } from '../../components/ui.js';
import { useData } from '../../components/use-data.js';
import { BASE, usePlace } from '../../router.js';
import { byTag, DOCUMENTS, operationsOf, type DocumentName, type OpenApiDocument, type Operation } from './openapi.js';
import { SchemaTree } from './schema-tree.js';
import { TryIt } from './try-it.js';

/** The service's own document, read without a credential (it needs none). */
async function load(name: DocumentName): Promise<OpenApiDocument> {
  const res = await fetch(DOCUMENTS[name].url, { headers: { accept: 'application/json' }, cache: 'no-store' });
  if (!res.ok) throw new Error(`${DOCUMENTS[name].url} answered ${res.status}`);
  return (await res.json()) as OpenApiDocument;
}

const anchor = (tag: string) => `tag-${tag.replace(/[^A-Za-z0-9]+/g, '-')}`;

/**
 * The API reference: every operation of /openapi.json or /acto/openapi.json, grouped by tag,
 * each with its parameters, body and responses as readable trees, the scope a key needs, and
 * a form that calls it. Browsing needs no sign-in; calling uses the session or a pasted key.
 */
export function ApiReference() {
  const place = usePlace();
  const name: DocumentName = place.params.get('doc') === 'acto' ? 'acto' : 'v1';
  const doc = useData(() => load(name), name);
  const d = doc.value;
  const ops = d ? operationsOf(d) : [];
  const groups = d ? byTag(d, ops) : [];
  return (
    <section class="api-reference">
      <ViewHeader
        title="API reference"
        lead={
          <>
            Read from the service's own OpenAPI documents (<a href={DOCUMENTS[name].url}>{DOCUMENTS[name].url}</a>). Open an operation to see its parameters,
            body and answers, and to try it: with your signed-in session, an API key pasted here (kept in this page's memory only), or no credential.
          </>
        }
      />
      <nav aria-label="API" class="segmented">
        {(Object.keys(DOCUMENTS) as DocumentName[]).map((n) => (
          <Link key={n} href={`${BASE}docs${n === 'v1' ? '' : `?doc=${n}`}`} aria-current={n === name ? 'page' : undefined}>
            {DOCUMENTS[n].label}
          </Link>
        ))}
      </nav>
      <ErrorNote error={doc.error} retry={doc.reload} />
      {d ? (
        <>
          <h2 class="doc-title">
            {DOCUMENTS[name].title} <span class="muted">version {d.info?.version ?? '—'}</span>
          </h2>
          {d.info?.description ? <p class="lead">{d.info.description}</p> : null}
          <p data-testid="operation-count">
            {ops.length} operations in {groups.length} groups.
          </p>
          <nav aria-label="Groups" class="chips docs-toc">
            {groups.map((g) => (
              <a key={g.tag} class="chip" href={`#${anchor(g.tag)}`}>
                {g.tag} <span class="count">{g.operations.length}</span>
              </a>
            ))}
          </nav>
          {groups.map((g) => (
            <section key={`${name} ${g.tag}`} class="docs-group" aria-labelledby={anchor(g.tag)}>
              <h2 id={anchor(g.tag)}>{g.tag}</h2>
              {g.operations.map((op) => (
                <OperationEntry key={op.key} doc={d} op={op} />
              ))}
            </section>
          ))}
        </>
      ) : doc.loading ? (
        <Loading label="Loading the API's description…" />
      ) : null}
    </section>
  );
}

function credentialText(op: Operation): string {
  if (op.auth === 'none') return 'No credential.';
  if (op.auth === 'jwt') return 'A dashboard token (sign in with a wallet) and X-Wallet-Address.';
  return `An API key ${op.scope ? `with the scope ${op.scope}` : 'with any scope'}, or a dashboard token; and X-Wallet-Address.`;
}

/** One operation: a line to open; what is inside is drawn only once opened (a document has a hundred of them). */
function OperationEntry({ doc, op }: { doc: OpenApiDocument; op: Operation }) {
  const [open, setOpen] = useState(false);
  return (
    <details class="operation" data-operation={op.key} onToggle={(e) => setOpen((e.currentTarget as HTMLDetailsElement).open)}>
      <summary>
        <span class={`method method-${op.method}`}>{op.method.toUpperCase()}</span>
        <code class="op-path">{op.path}</code>
        <span class="op-summary">{op.summary}</span>
        {op.scope ? <span class="scope-tag">{op.scope}</span> : null}
      </summary>
      {open ? (
        <div class="operation-body">
          {op.description ? <p>{op.description}</p> : null}
          <dl class="facts">
            <dt>Credential</dt>
            <dd>{credentialText(op)}</dd>
            {op.auth === 'api_key' ? (
              <>
                <dt>Required scope</dt>
                <dd data-testid="required-scope">{op.scope ?? 'none (any key)'}</dd>
              </>
            ) : null}
            {op.operationId ? (
              <>
                <dt>Operation id</dt>
                <dd>
                  <code>{op.operationId}</code>
                </dd>
              </>
            ) : null}
          </dl>
          {op.parameters.length > 0 ? (
            <>
              <h3>Parameters</h3>
              <ul class="schema-members top">
                {op.parameters.map((p) => (
                  <li key={`${p.in}:${p.name}`}>
                    <code class="schema-name">{p.name}</code>
                    <span class="schema-limit">in {p.in}</span>
                    {p.required ? <span class="schema-required">required</span> : null}
                    {p.description ? <span class="schema-description">{p.description}</span> : null}
                    <SchemaTree doc={doc} schema={p.schema} />
                  </li>
                ))}
              </ul>
            </>
          ) : null}
          {op.body ? (
            <>
              <h3>Request body (application/json)</h3>
              <SchemaTree doc={doc} schema={op.body} />
            </>
          ) : null}
          <h3>Responses</h3>
          <ul class="responses">
            {op.responses.map((r) => (
              <li key={r.status}>
                <span class={`status status-${r.status.charAt(0)}`}>{r.status}</span> {r.description}
                {r.mediaType && !r.mediaType.includes('json') ? <span class="schema-limit">{r.mediaType}</span> : null}
                {r.schema && Object.keys(r.schema).length > 0 ? (
                  // A refusal's body is the same few members everywhere: it opens on demand.
                  r.status.startsWith('2') ? (
                    <SchemaTree doc={doc} schema={r.schema} />
                  ) : (
                    <details class="response-body">
                      <summary>Body</summary>
                      <SchemaTree doc={doc} schema={r.schema} />
                    </details>
                  )
                ) : null}
              </li>
            ))}
          </ul>
          <TryIt doc={doc} op={op} />
        </div>
      ) : null}
    </details>
  );
}
