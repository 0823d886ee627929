import type * as E from 'fp-ts/lib/Either.js';

export interface IssuedToken {
  readonly token: string;
  readonly expiresInS: number;
  readonly jti: string;
}

export interface TokenClaims {
  readonly wallet: string;
  readonly jti: string;
  readonly expiresAtMs: number;
}

/** Dashboard tokens (JWT) for a wallet that signed in. */
export interface TokenIssuer {
  issue(wallet: string): IssuedToken;
  /** Checks signature, algorithm, issuer, audience and lifetime; the wallet is the `sub`. */
  verify(token: string): E.Either<'InvalidToken' | 'ExpiredToken', TokenClaims>;
}
