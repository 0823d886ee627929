import type { Session } from './session.js';

/** A refusal from the API: its status and JSON body (`detail` is always there). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { detail?: string; code?: string; required?: number; balance?: number; [k: string]: unknown },
    readonly retryAfterS: number | null,
  ) {
    super(body.detail ?? `request failed with status ${status}`);
  }

  /** The token expired, is no longer valid or was signed out (in another tab): the session must sign in again. */
  get sessionEnded(): boolean {
    return this.status === 401 && (this.body.code === 'expired_token' || this.body.code === 'invalid_token' || this.body.code === 'revoked_token');
  }
}

let current: Session | null = null;
let onEnded: (reason: ApiError) => void = () => undefined;

export function useSession(session: Session | null, ended: (reason: ApiError) => void): void {
  current = session;
  onEnded = ended;
}

/** The signed-in wallet, or null. */
export const sessionWallet = (): string | null => current?.wallet ?? null;

/** The session's token and wallet as request headers (none before sign-in). */
export function credentialHeaders(credential?: { token: string; wallet: string }): Record<string, string> {
  const auth = credential ?? current;
  return auth ? { authorization: `Bearer ${auth.token}`, 'x-wallet-address': auth.wallet } : {};
}

/** A refused answer as an ApiError; a token the service no longer takes ends the session here too. */
export async function refusal(res: Response, own = true): Promise<ApiError> {
  const json = (await res.json().catch(() => ({ detail: `unreadable answer (status ${res.status})` }))) as Record<string, unknown>;
  const retry = Number(res.headers.get('retry-after'));
  const error = new ApiError(res.status, json, Number.isFinite(retry) && retry > 0 ? retry : null);
  if (error.sessionEnded && own) onEnded(error);
  return error;
}

/** Calls this service's own API (same origin: no CORS, no other host), with the session's token. */
export async function api<T>(method: string, path: string, body?: unknown, credential?: { token: string; wallet: string }): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...credentialHeaders(credential) };
  if (body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(path, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}), cache: 'no-store' });
  if (res.status === 204) return undefined as T;
  if (!res.ok) throw await refusal(res, !credential);
  return (await res.json().catch(() => ({ detail: `unreadable answer (status ${res.status})` }))) as T;
}

/** `?a=1&b=2` from the defined members only. */
export function query(params: Record<string, string | number | undefined | null>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null && v !== '') q.set(k, String(v));
  const text = q.toString();
  return text === '' ? '' : `?${text}`;
}
