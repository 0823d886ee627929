import { useEffect, useState } from 'preact/hooks';
import { ApiError } from '../api.js';
import { CopyButton, Link } from '../components/ui.js';
import { fundCommand, type DashboardConfig } from '../config.js';
import { devWallet, devWalletAddress, devWalletSupported, importDevWallet } from '../dev-wallet.js';
import { fmtCount, fmtNumber } from '../format.js';
import { BASE } from '../router.js';
import type { Session } from '../session.js';
import { signIn } from '../sign-in.js';
import { Declined, watchWallets, WrongSignature, type Signer } from '../wallets.js';

type Problem =
  | { kind: 'declined'; wallet: string }
  | { kind: 'balance'; wallet: string; address: string | null; required: number; balance: number }
  | { kind: 'unavailable'; retryAfterS: number | null }
  | { kind: 'keyfile'; message: string }
  | { kind: 'other'; message: string };

function problemOf(err: unknown, signer: Signer, address: string | null): Problem {
  if (err instanceof Declined) return { kind: 'declined', wallet: signer.name };
  if (err instanceof ApiError && err.status === 403 && err.body.code === 'insufficient_balance') {
    return { kind: 'balance', wallet: signer.name, address, required: Number(err.body.required), balance: Number(err.body.balance) };
  }
  if (err instanceof ApiError && err.status === 503) return { kind: 'unavailable', retryAfterS: err.retryAfterS };
  if (err instanceof WrongSignature) return { kind: 'other', message: err.message };
  return { kind: 'other', message: err instanceof Error ? err.message : String(err) };
}

function ProblemNote({ problem, config }: { problem: Problem; config: DashboardConfig }) {
  switch (problem.kind) {
    case 'declined':
      return <p>You declined the request in {problem.wallet}. Nothing was signed. Choose a wallet to try again.</p>;
    case 'balance': {
      const command = problem.address ? fundCommand(config, problem.address) : null;
      return (
        <>
          <p>
            This wallet holds {fmtCount(problem.balance, 'access token')}; signing in needs at least {fmtNumber(problem.required)}.
          </p>
          {command ? (
            <>
              <p>On this local ledger, give it tokens with (run it in the service's folder, with the same DATABASE_URL):</p>
              <CommandLine command={command} />
              <p>Then sign in again: on the local ledger the new balance counts at once.</p>
            </>
          ) : (
            <p>Add access tokens ({config.access_token_mint}) to this wallet, then sign in again.</p>
          )}
        </>
      );
    }
    case 'unavailable':
      return (
        <p>
          The service cannot check token balances right now: its balance source is not answering. Nothing is wrong with your wallet.
          {problem.retryAfterS ? ` Try again in about ${fmtCount(problem.retryAfterS, 'second')}.` : ' Try again in a minute.'}
        </p>
      );
    case 'keyfile':
      return <p>That keypair file cannot be used: {problem.message}. The development wallet is unchanged.</p>;
    case 'other':
      return <p>Sign-in failed: {problem.message}</p>;
  }
}

function CommandLine({ command }: { command: string }) {
  return (
    <div class="command">
      <code class="mono">{command}</code>
      <CopyButton text={command} label="Copy command" />
    </div>
  );
}

function WalletButton({ signer, busy, onPick }: { signer: Signer; busy: boolean; onPick: () => void }) {
  return (
    <button type="button" class="wallet-button" onClick={onPick} disabled={busy}>
      {signer.icon ? <img src={signer.icon} alt="" width={28} height={28} /> : <span class="wallet-icon" aria-hidden="true" />}
      <span>{signer.name}</span>
    </button>
  );
}

export function SignIn(p: { config: DashboardConfig; expired: boolean; onSignedIn: (s: Session) => void }) {
  const [wallets, setWallets] = useState<Signer[]>([]);
  const [busy, setBusy] = useState<string | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [devAddress, setDevAddress] = useState<string | null>(null);
  const devOffered = p.config.development_wallet && devWalletSupported();
  useEffect(() => watchWallets(setWallets), []);
  useEffect(() => {
    if (devOffered) devWalletAddress().then(setDevAddress, () => setDevAddress(null));
  }, [devOffered]);

  const start = async (signer: Signer) => {
    setBusy(signer.name);
    setProblem(null);
    let address: string | null = null;
    try {
      const session = await signIn({ ...signer, connectAndSign: (get) => signer.connectAndSign((a) => ((address = a), get(a))) });
      p.onSignedIn(session);
    } catch (err) {
      setProblem(problemOf(err, signer, address));
    } finally {
      setBusy(null);
    }
  };

  // A keypair file (the CLI's wallet.json) becomes the development wallet of this tab.
  const takeKeyFile = async (input: HTMLInputElement) => {
    const file = input.files?.[0];
    input.value = '';
    if (!file) return;
    setProblem(null);
    try {
      setDevAddress(await importDevWallet(await file.text()));
    } catch (err) {
      setProblem({ kind: 'keyfile', message: err instanceof Error ? err.message : String(err) });
    }
  };

  const devCommand = devAddress ? fundCommand(p.config, devAddress) : null;
  return (
    <main class="signin" id="main">
      <div class="signin-card">
        <p class="brand">
          <span class="brand-mark" aria-hidden="true" />
          Proof Registry
        </p>
        <h1>Sign in with your wallet</h1>
        <p class="lead">
          Your wallet signs a one-time sign-in message. It is not a transaction and costs nothing. The wallet must hold at least{' '}
          {fmtCount(p.config.minimum_balance, 'access token')}.
        </p>
        <div aria-live="polite">
          {p.expired ? (
            <div class="note note-warning">
              <p>Your session has expired. Sign in again to continue where you were.</p>
            </div>
          ) : null}
        </div>
        <div role="alert">
          {problem ? (
            <div class="note note-error">
              <ProblemNote problem={problem} config={p.config} />
            </div>
          ) : null}
        </div>
        <section aria-labelledby="wallets-heading">
          <h2 id="wallets-heading">Wallets in this browser</h2>
          {wallets.length > 0 ? (
            <ul class="wallet-list">
              {wallets.map((w) => (
                <li key={w.name}>
                  <WalletButton signer={w} busy={busy !== null} onPick={() => start(w)} />
                </li>
              ))}
            </ul>
          ) : (
            <div class="empty compact">
              <p class="empty-title">No Solana wallet found in this browser.</p>
              <p>
                Install a wallet that supports the Wallet Standard, such as Phantom, Solflare or Backpack, then reload this page.
                {devOffered ? ' Or try the service with the development wallet below.' : ''}
              </p>
            </div>
          )}
          {busy ? (
            <p role="status" class="loading">
              Waiting for {busy}…
            </p>
          ) : null}
        </section>
        {devOffered ? (
          <section aria-labelledby="dev-heading" class="dev-wallet">
            <h2 id="dev-heading">Development wallet</h2>
            <p>
              This service runs on its local ledger, so you can sign in with a key made in this browser tab. It is kept for this tab only and is offered only
              without a real Solana network.
            </p>
            {devAddress ? (
              <>
                <p>
                  Its address: <span class="mono break">{devAddress}</span>
                </p>
                {devCommand ? (
                  <>
                    <p>Give it access tokens first, in the service's folder:</p>
                    <CommandLine command={devCommand} />
                  </>
                ) : null}
              </>
            ) : null}
            <div class="field dev-keyfile">
              <label for="dev-keypair">Or sign in as a Solana keypair file of this ledger, such as the CLI's wallet.json (kept for this tab only too):</label>
              <input
                id="dev-keypair"
                type="file"
                accept=".json,application/json"
                disabled={busy !== null}
                onChange={(e) => void takeKeyFile(e.currentTarget)}
              />
            </div>
            <button type="button" class="button primary" disabled={busy !== null} onClick={() => start(devWallet)}>
              Sign in with the development wallet
            </button>
          </section>
        ) : null}
        <p class="signin-docs">
          No sign-in is needed to read the <Link href={`${BASE}docs`}>API reference</Link>.
        </p>
      </div>
    </main>
  );
}
