import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { CliError, describeFsError, parseJson } from './command.js';

type Env = Readonly<Record<string, string | undefined>>;

/** A dashboard session of the CLI: the token `login` got, for `keys` to use. */
export interface ServiceSession {
  readonly url: string;
  readonly wallet: string;
  readonly access_token: string;
  readonly expires_at: string;
}

export const DEFAULT_URL = 'http://127.0.0.1:8080';

/** The service to talk to: --url, else PROOF_REGISTRY_URL, else the local default. */
export const serviceUrl = (given: string | undefined, env: Env): string => (given || env['PROOF_REGISTRY_URL'] || DEFAULT_URL).replace(/\/+$/, '');

/**
 * Where `login` keeps its session: --session, else PROOF_REGISTRY_SESSION, else
 * $XDG_CONFIG_HOME/proof-registry/session.json (~/.config by default). Readable by its owner only.
 */
export function sessionPath(given: string | undefined, env: Env, cwd: string): string {
  if (given) return path.resolve(cwd, given);
  if (env['PROOF_REGISTRY_SESSION']) return path.resolve(cwd, env['PROOF_REGISTRY_SESSION']);
  return path.join(env['XDG_CONFIG_HOME'] || path.join(homedir(), '.config'), 'proof-registry', 'session.json');
}

export async function saveSession(file: string, s: ServiceSession): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
  await writeFile(file, JSON.stringify(s, null, 2) + '\n', { mode: 0o600 });
  await chmod(file, 0o600);
}

export async function loadSession(file: string): Promise<ServiceSession> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(`not signed in (${file}: ${describeFsError(error)}); run: proof-registry login --keypair <wallet.json>`);
  }
  const s = parseJson(text, file) as Partial<ServiceSession>;
  if (typeof s.url !== 'string' || typeof s.wallet !== 'string' || typeof s.access_token !== 'string')
    throw new CliError(`${file}: not a session written by proof-registry login`);
  if (typeof s.expires_at === 'string' && Date.parse(s.expires_at) <= Date.now()) {
    throw new CliError(`the session in ${file} expired at ${s.expires_at}; sign in again: proof-registry login --keypair <wallet.json>`);
  }
  return s as ServiceSession;
}

/** A Solana CLI keypair file: a JSON array of the 64-byte secret key (seed, then public key). */
export async function readSolanaKeypair(file: string, cwd: string): Promise<{ wallet: string; secretKey: Uint8Array }> {
  let text: string;
  try {
    text = await readFile(path.resolve(cwd, file), 'utf8');
  } catch (error) {
    throw new CliError(`${file}: ${describeFsError(error)}`);
  }
  const value = parseJson(text, file);
  if (!Array.isArray(value) || value.length !== 64 || !value.every((b) => Number.isInteger(b) && b >= 0 && b <= 255)) {
    throw new CliError(`${file}: not a Solana keypair file (a JSON array of 64 numbers, as solana-keygen writes)`);
  }
  const secretKey = Uint8Array.from(value as number[]);
  const derived = nacl.sign.keyPair.fromSeed(secretKey.subarray(0, 32)).publicKey;
  if (!derived.every((b, i) => b === secretKey[32 + i])) throw new CliError(`${file}: its public half does not match its secret half; the file is damaged`);
  return { wallet: bs58.encode(derived), secretKey };
}

/** The service's JSON answer, or a one-line error naming its status and detail. */
export async function callService<T>(
  url: string,
  method: string,
  route: string,
  o: { token?: string; wallet?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  let res: Response;
  try {
    res = await fetch(url + route, {
      method,
      headers: {
        accept: 'application/json',
        ...(o.token ? { authorization: `Bearer ${o.token}`, 'x-wallet-address': o.wallet ?? '' } : {}),
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
    });
  } catch (error) {
    throw new CliError(
      `cannot reach the service at ${url} (${(error as { cause?: { code?: string } }).cause?.code ?? (error as Error).message}); is it running? (--url or PROOF_REGISTRY_URL)`,
    );
  }
  if (res.status === 204) return { status: 204, body: undefined as T };
  const body = (await res.json().catch(() => ({}))) as T & { detail?: string; code?: string };
  if (!res.ok) {
    const retry = res.headers.get('retry-after');
    const expired =
      res.status === 401 && ['expired_token', 'invalid_token', 'revoked_token'].includes(body.code ?? '')
        ? '; sign in again: proof-registry login --keypair <wallet.json>'
        : '';
    throw new CliError(`${method} ${route}: ${res.status} ${body.detail ?? res.statusText}${retry ? ` (retry in ${retry} s)` : ''}${expired}`);
  }
  return { status: res.status, body };
}

/** Sign-In With Solana from the command line: connect, sign the challenge as given, verify. */
export async function signInWithKeypair(url: string, keypair: { wallet: string; secretKey: Uint8Array }): Promise<ServiceSession> {
  const { body: c } = await callService<{ challenge: string }>(url, 'POST', '/v1/auth/wallet/connect', { body: { wallet_address: keypair.wallet } });
  const signature = Buffer.from(nacl.sign.detached(new TextEncoder().encode(c.challenge), keypair.secretKey)).toString('base64');
  try {
    const { body } = await callService<{ access_token: string; expires_in: number; wallet_address: string }>(url, 'POST', '/v1/auth/wallet/verify', {
      body: { wallet_address: keypair.wallet, signature, challenge: c.challenge },
    });
    return { url, wallet: body.wallet_address, access_token: body.access_token, expires_at: new Date(Date.now() + body.expires_in * 1000).toISOString() };
  } catch (error) {
    if (error instanceof CliError && / 403 insufficient token balance/.test(error.message)) {
      const config = await callService<{ fund_command: string | null }>(url, 'GET', '/v1/dashboard/config').catch(() => null);
      const fund = config?.body.fund_command?.replace('<wallet>', keypair.wallet);
      if (fund) throw new CliError(`${error.message}. On this local ledger, fund it with: ${fund}`);
    }
    throw error;
  }
}
