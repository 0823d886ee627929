import { useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { firstProofSnippets, type Snippet } from '../first-proof.js';
import { BASE } from '../router.js';
import { loadSession } from '../session.js';
import { CopyButton, Link } from './ui.js';
import { useData } from './use-data.js';

/**
 * Sending a first proof three ways, as tabs (arrow keys move between them, as in any tab list),
 * each with its commands filled in and a copy button. `key`: the key just made, shown once.
 */
export function FirstProof({ wallet, apiKey, idPrefix = 'first-proof' }: { wallet: string; apiKey?: string; idPrefix?: string }) {
  const snippets = firstProofSnippets({ origin: location.origin, wallet, ...(apiKey ? { key: apiKey } : {}) });
  const [chosen, setChosen] = useState<Snippet['id']>('curl');
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const move = (e: KeyboardEvent, i: number) => {
    const to = e.key === 'ArrowRight' ? i + 1 : e.key === 'ArrowLeft' ? i - 1 : e.key === 'Home' ? 0 : e.key === 'End' ? snippets.length - 1 : null;
    if (to === null) return;
    e.preventDefault();
    const next = (to + snippets.length) % snippets.length;
    setChosen(snippets[next]!.id);
    tabs.current[next]?.focus();
  };
  return (
    <div class="first-proof">
      <div role="tablist" aria-label="Send a first proof with" class="tabs">
        {snippets.map((s, i) => (
          <button
            key={s.id}
            ref={(el) => void (tabs.current[i] = el)}
            type="button"
            role="tab"
            id={`${idPrefix}-tab-${s.id}`}
            aria-selected={s.id === chosen}
            aria-controls={`${idPrefix}-panel-${s.id}`}
            tabIndex={s.id === chosen ? 0 : -1}
            onClick={() => setChosen(s.id)}
            onKeyDown={(e) => move(e, i)}
          >
            {s.label}
          </button>
        ))}
      </div>
      {snippets.map((s) => (
        <div key={s.id} role="tabpanel" id={`${idPrefix}-panel-${s.id}`} aria-labelledby={`${idPrefix}-tab-${s.id}`} hidden={s.id !== chosen} class="tab-panel">
          <p class="muted">{s.about}</p>
          <pre class="snippet" data-testid={`snippet-${s.id}`}>
            <code>{s.text}</code>
          </pre>
          <CopyButton text={s.text} label={`Copy the ${s.label} commands`} />
        </div>
      ))}
    </div>
  );
}

/**
 * What a wallet with no proof does next: make a key, then send a proof with it. Shown where a
 * new user lands (the overview) and where they look next (proofs, fleet).
 */
export function FirstSteps() {
  const wallet = loadSession()?.wallet ?? '';
  const keys = useData(() => api<{ items: unknown[] }>('GET', '/v1/keys'), 'first-steps-keys');
  const hasKey = (keys.value?.items.length ?? 0) > 0;
  return (
    <section class="first-steps panel" aria-labelledby="first-steps-title">
      <h2 id="first-steps-title">First steps</h2>
      <ol class="steps">
        <li class={hasKey ? 'step done' : 'step'}>
          <h3>Make an API key</h3>
          {hasKey ? (
            <p>
              Done: this wallet has an API key. <Link href={`${BASE}keys`}>Manage API keys</Link>
            </p>
          ) : (
            <p>
              A device sends its proofs with a key. <Link href={`${BASE}keys`}>Make an API key</Link>: it is shown once, with these commands filled in.
            </p>
          )}
        </li>
        <li class="step">
          <h3>Send a first proof</h3>
          <p>
            Every request carries the key and this wallet’s full address, <code class="mono break">{wallet}</code>.
          </p>
          <FirstProof wallet={wallet} />
        </li>
      </ol>
    </section>
  );
}
