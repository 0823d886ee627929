/**
 * Sign-In-With-Solana (SIWS) messages: the text a wallet signs to prove it controls an
 * address. The layout follows the Solana wallet-standard `createSignInMessageText`, so wallets
 * that parse SIWS (Phantom, Solflare, Backpack) show it as a sign-in request rather than as
 * opaque bytes. The service keeps the exact text it issued; parsing here only recovers the
 * fields, and the verifier compares the whole text with what was stored.
 */
export interface SignInMessage {
  /** host[:port] of the service, from PUBLIC_ORIGIN; wallets warn when it differs from the page. */
  readonly domain: string;
  readonly address: string;
  readonly statement: string;
  readonly uri: string;
  readonly version: '1';
  readonly chainId: string;
  readonly nonce: string;
  /** RFC 3339 UTC, as Date.prototype.toISOString writes it. */
  readonly issuedAt: string;
  readonly expirationTime: string;
}

export const SIGN_IN_STATEMENT = 'Sign in to Proof Registry. This request will not trigger a blockchain transaction or cost any fees.';

/** How long a challenge may be signed and sent back. */
export const SIGN_IN_TTL_MS = 5 * 60_000;

export function signInMessageText(m: SignInMessage): string {
  return [
    `${m.domain} wants you to sign in with your Solana account:`,
    m.address,
    '',
    m.statement,
    '',
    `URI: ${m.uri}`,
    `Version: ${m.version}`,
    `Chain ID: ${m.chainId}`,
    `Nonce: ${m.nonce}`,
    `Issued At: ${m.issuedAt}`,
    `Expiration Time: ${m.expirationTime}`,
  ].join('\n');
}

const LINE = '([^\\n]+)';
const MESSAGE = new RegExp(
  `^${LINE} wants you to sign in with your Solana account:\\n${LINE}\\n\\n${LINE}\\n\\n` +
    `URI: ${LINE}\\nVersion: (1)\\nChain ID: ${LINE}\\nNonce: ([A-Za-z0-9]{16,64})\\n` +
    `Issued At: ${LINE}\\nExpiration Time: ${LINE}$`,
);

/** The fields of a message in exactly the layout this service issues; null for anything else. */
export function parseSignInMessage(text: string): SignInMessage | null {
  const m = MESSAGE.exec(text);
  if (!m) return null;
  const [, domain, address, statement, uri, , chainId, nonce, issuedAt, expirationTime] = m as unknown as string[];
  return {
    domain: domain!,
    address: address!,
    statement: statement!,
    uri: uri!,
    version: '1',
    chainId: chainId!,
    nonce: nonce!,
    issuedAt: issuedAt!,
    expirationTime: expirationTime!,
  };
}

/** The SIWS `domain` of an origin: its host, with the port when it is not the scheme's default. */
export function signInDomain(origin: string): string {
  return new URL(origin).host;
}

/** The SIWS `URI` of an origin: the origin itself, without a path. */
export function signInUri(origin: string): string {
  return new URL(origin).origin;
}

const NONCE_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const NONCE_LENGTH = 24;

/**
 * An alphanumeric nonce from uniformly random bytes (SIWS requires at least 8 alphanumerics;
 * 24 from a 62-letter alphabet is about 143 bits). Bytes ≥ 248 are skipped so every letter is
 * equally likely; returns null when the bytes run out first (the caller draws more).
 */
export function nonceFromRandomBytes(bytes: Uint8Array, length = NONCE_LENGTH): string | null {
  let out = '';
  for (const b of bytes) {
    if (b >= 248) continue;
    out += NONCE_ALPHABET[b % 62];
    if (out.length === length) return out;
  }
  return null;
}

/** A chain id for the message from the RPC endpoint: wallets show it, nothing here trusts it. */
export function chainIdFor(rpcUrl: string | null): string {
  if (rpcUrl === null) return 'localnet';
  if (/devnet/i.test(rpcUrl)) return 'devnet';
  if (/testnet/i.test(rpcUrl)) return 'testnet';
  return 'mainnet';
}
