/**
 * The signed-in session: the dashboard token (JWT) and its wallet, kept in sessionStorage
 * (this tab only, gone when it closes), never in localStorage or a cookie, so no other tab,
 * site or later visitor of the machine can pick it up.
 */
export interface Session {
  readonly token: string;
  readonly wallet: string;
  readonly expiresAtMs: number;
  /** The wallet app that signed in (shown in the header). */
  readonly walletName: string;
}

const KEY = 'proof-registry.session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    if (raw === null) return null;
    const s = JSON.parse(raw) as Session;
    return typeof s.token === 'string' && typeof s.wallet === 'string' && typeof s.expiresAtMs === 'number' ? s : null;
  } catch {
    return null;
  }
}

export function saveSession(s: Session | null): void {
  if (s === null) sessionStorage.removeItem(KEY);
  else sessionStorage.setItem(KEY, JSON.stringify(s));
}
