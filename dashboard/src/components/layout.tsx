import type { ComponentChildren } from 'preact';
import { BASE } from '../router.js';
import type { Session } from '../session.js';
import { shortId } from '../format.js';
import { Link } from './ui.js';

const NAV: ReadonlyArray<readonly [string, string]> = [
  ['', 'Overview'],
  ['stats', 'Statistics'],
  ['activity', 'Activity'],
  ['keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['fleet', 'Fleet'],
  ['proofs', 'Proofs'],
  ['verify', 'Verify'],
  ['docs', 'API reference'],
];

/** The section a path belongs to, for aria-current. */
const sectionOf = (path: string) => path.split('/')[0] ?? '';

export function Shell(p: { session: Session; path: string; onSignOut: () => void; children: ComponentChildren }) {
  const section = sectionOf(p.path);
  return (
    <div class="shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="sidebar">
        <p class="brand">
          <span class="brand-mark" aria-hidden="true" />
          Proof Registry
        </p>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.map(([path, label]) => (
              <li key={path}>
                <Link href={BASE + path} aria-current={section === path ? 'page' : undefined}>
                  {label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div class="account">
          <p class="account-label">Signed in with {p.session.walletName}</p>
          <p class="account-wallet mono" title={p.session.wallet}>
            {shortId(p.session.wallet, 6)}
          </p>
          <button type="button" class="button small" onClick={p.onSignOut}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {p.children}
      </main>
    </div>
  );
}

/** Signed out, a page that needs no sign-in (the API reference): the brand and a way to sign in. */
export function PublicShell({ children }: { children: ComponentChildren }) {
  return (
    <div class="public-shell">
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="public-header">
        <p class="brand">
          <span class="brand-mark" aria-hidden="true" />
          Proof Registry
        </p>
        <Link href={BASE} class="button small">
          Sign in
        </Link>
      </header>
      <main id="main" class="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

/** The heading of a view: the one h1 of the page, with optional actions beside it. */
export function ViewHeader({ title, children, lead }: { title: string; lead?: ComponentChildren; children?: ComponentChildren }) {
  return (
    <div class="view-header">
      <div>
        <h1>{title}</h1>
        {lead ? <p class="lead">{lead}</p> : null}
      </div>
      {children ? <div class="view-actions">{children}</div> : null}
    </div>
  );
}
