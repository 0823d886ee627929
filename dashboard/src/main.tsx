import { render } from 'preact';
import { useCallback, useEffect, useState } from 'preact/hooks';
import { api, type ApiError, useSession } from './api.js';
import { PublicShell, Shell } from './components/layout.js';
import { lazyView } from './components/lazy-view.js';
import { ErrorNote, Loading } from './components/ui.js';
import type { DashboardConfig } from './config.js';
import { usePlace } from './router.js';
import { loadSession, saveSession, type Session } from './session.js';
import { live } from './live-events.js';
import { ActivityPage } from './views/activity.js';
import { DevicePage } from './views/device.js';
import { FleetPage } from './views/fleet.js';
import { KeysPage } from './views/keys.js';
import { NotFound } from './views/not-found.js';
import { Overview } from './views/overview.js';
import { ProofPage } from './views/proof.js';
import { ProofsPage } from './views/proofs.js';
import { SignIn } from './views/sign-in.js';
import { VerifyPage } from './views/verify.js';

// Managing webhooks is seldom done: its views load when the page is first opened.
const WebhooksPage = lazyView(() => import('./views/webhooks.js').then((m) => m.WebhooksPage));
// So are the statistics, with their charts.
const StatisticsPage = lazyView(() => import('./views/stats.js').then((m) => m.StatisticsPage));
// So is the API reference, which signed-out visitors read too.
const ApiReference = lazyView(() => import('./views/docs/api-reference.js').then((m) => m.ApiReference));
const isDocs = (path: string) => path === 'docs' || path.startsWith('docs/');

function View({ path, session }: { path: string; session: Session }) {
  const [section, ...rest] = path.split('/');
  const id = rest.join('/');
  switch (section) {
    case '':
      return <Overview session={session} />;
    case 'activity':
      return <ActivityPage />;
    case 'stats':
      return <StatisticsPage session={session} />;
    case 'keys':
      return <KeysPage />;
    case 'webhooks':
      return <WebhooksPage />;
    case 'fleet':
      return rest[0] === 'devices' && rest[1] ? <DevicePage deviceId={decodeURIComponent(rest.slice(1).join('/'))} /> : <FleetPage />;
    case 'proofs':
      return id ? <ProofPage proofId={decodeURIComponent(id)} /> : <ProofsPage />;
    case 'verify':
      return <VerifyPage />;
    case 'docs':
      return <ApiReference />;
    default:
      return <NotFound />;
  }
}

function App() {
  const place = usePlace();
  const [config, setConfig] = useState<DashboardConfig | null>(null);
  const [configError, setConfigError] = useState<Error | null>(null);
  const [session, setSession] = useState<Session | null>(() => {
    const s = loadSession();
    return s && s.expiresAtMs > Date.now() ? s : null;
  });
  const [expired, setExpired] = useState(false);

  const loadConfig = useCallback(() => {
    setConfigError(null);
    api<DashboardConfig>('GET', '/v1/dashboard/config').then(setConfig, setConfigError);
  }, []);
  useEffect(loadConfig, [loadConfig]);

  const end = useCallback((why: 'expired' | 'signed-out') => {
    // The stream stops with the session, before its token is refused and read as an expiry.
    live.reset();
    saveSession(null);
    setSession(null);
    setExpired(why === 'expired');
  }, []);
  // Signing out revokes the token on the service first (POST /v1/auth/logout), so a copy of it
  // taken from this tab is refused too; the session ends here whatever that answers.
  const signOut = useCallback(async () => {
    if (session) await api('POST', '/v1/auth/logout', undefined, session).catch(() => undefined);
    end('signed-out');
  }, [session, end]);
  // A token the service refuses as expired ends the session; the URL stays, so signing in
  // again returns to the same view.
  useSession(session, (e: ApiError) => e.sessionEnded && end('expired'));
  useEffect(() => {
    if (!session) return;
    const timer = setTimeout(() => end('expired'), Math.max(0, session.expiresAtMs - Date.now()));
    return () => clearTimeout(timer);
  }, [session, end]);
  useEffect(() => {
    document.title = isDocs(place.path) ? 'API reference · Proof Registry' : session ? 'Proof Registry dashboard' : 'Sign in · Proof Registry';
  }, [session, place.path]);

  if (configError) {
    return (
      <main class="center" id="main">
        <h1>Proof Registry</h1>
        <ErrorNote error={configError} retry={loadConfig} />
      </main>
    );
  }
  if (!config) return <Loading label="Loading the dashboard…" />;
  if (!session && isDocs(place.path)) {
    return (
      <PublicShell>
        <ApiReference />
      </PublicShell>
    );
  }
  if (!session) {
    return (
      <SignIn
        config={config}
        expired={expired}
        onSignedIn={(s) => {
          saveSession(s);
          setExpired(false);
          setSession(s);
        }}
      />
    );
  }
  return (
    <Shell session={session} path={place.path} onSignOut={() => void signOut()}>
      <View path={place.path} session={session} />
    </Shell>
  );
}

render(<App />, document.getElementById('app')!);
