import type * as E from 'fp-ts/lib/Either.js';
import type { KeyGrant, Scope } from '../../domain/identity/key-grant.js';

export type CredentialKind = 'api_key' | 'jwt';

/** Who is calling, established from a credential; the wallet scopes every read and write. */
export interface Principal {
  readonly wallet: string;
  readonly kind: CredentialKind;
  /** The API key's id when the credential is a key, for usage figures and rate limits. */
  readonly keyId: string | null;
  /** The dashboard token's id and expiry when the credential is a JWT: what signing out revokes. */
  readonly token?: { readonly jti: string; readonly expiresAtMs: number } | null;
  /** What the credential may do: the key's scopes and robots; everything for a dashboard token. */
  readonly grant: KeyGrant;
}

export type AuthFailure =
  | { readonly _tag: 'MissingCredential' }
  | { readonly _tag: 'InvalidApiKey' }
  | { readonly _tag: 'DisabledApiKey'; readonly disabledAtMs: number }
  | { readonly _tag: 'ExpiredApiKey'; readonly expiredAtMs: number }
  | { readonly _tag: 'InsufficientScope'; readonly scope: Scope }
  | { readonly _tag: 'InvalidToken' }
  | { readonly _tag: 'ExpiredToken' }
  | { readonly _tag: 'RevokedToken' }
  | { readonly _tag: 'CredentialKindNotAllowed'; readonly allowed: readonly CredentialKind[] }
  | { readonly _tag: 'MissingWalletHeader' }
  | { readonly _tag: 'WalletMismatch' }
  | { readonly _tag: 'InsufficientBalance'; readonly required: number; readonly balance: number }
  | { readonly _tag: 'BalanceUnavailable'; readonly retryAfterS: number };

export interface AuthRequest {
  /** The raw `Authorization` header, if any. */
  readonly authorization: string | undefined;
  /** The raw `X-Wallet-Address` header, if any. */
  readonly walletHeader: string | undefined;
  /** Which credential kinds the route takes. */
  readonly accepts: readonly CredentialKind[];
  /** The scope an API key needs for the route; absent: any key of the wallet may call it. */
  readonly scope?: Scope;
  /** The method and route template called (`POST /v1/proofs`), for a key's usage per endpoint. */
  readonly endpoint?: string;
}

/**
 * Establishes the principal for a request: checks the credential, ties the wallet header to
 * it, and applies the token gate. The wallet always comes from the credential, never the header.
 */
export interface Authenticator {
  authenticate(request: AuthRequest): Promise<E.Either<AuthFailure, Principal>>;
}
