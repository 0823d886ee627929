import type { AuthFailure } from '../../application/ports/authenticator.js';
import { HttpError } from './http-error.js';

/** The one place an authentication failure becomes a status (docs/identity.md, "What is checked"). */
export function authProblem(failure: AuthFailure): HttpError {
  switch (failure._tag) {
    case 'MissingCredential':
      return new HttpError(401, 'missing credential: send Authorization: Bearer <API key or token>', { code: 'missing_credential' }, { 'WWW-Authenticate': 'Bearer' });
    case 'InvalidApiKey':
      return new HttpError(401, 'invalid API key', { code: 'invalid_api_key' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'InvalidToken':
      return new HttpError(401, 'invalid token', { code: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'ExpiredToken':
      return new HttpError(401, 'expired token: sign in again', { code: 'expired_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'RevokedToken':
      return new HttpError(401, 'this token was signed out: sign in again', { code: 'revoked_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'CredentialKindNotAllowed':
      return new HttpError(
        401,
        failure.allowed.includes('api_key') ? 'this route takes an API key or a dashboard token' : 'this route takes a dashboard token (JWT) from wallet sign-in, not an API key',
        { code: 'wrong_credential_kind' },
        { 'WWW-Authenticate': 'Bearer' },
      );
    case 'MissingWalletHeader':
      return new HttpError(401, 'missing X-Wallet-Address header', { code: 'missing_wallet_header' });
    case 'WalletMismatch':
      return new HttpError(403, 'X-Wallet-Address does not match the wallet of the credential', { code: 'wallet_mismatch' });
    case 'InsufficientBalance':
      return new HttpError(
        403,
        `insufficient token balance: at least ${failure.required} access tokens required, the wallet holds ${failure.balance}`,
        { code: 'insufficient_balance', required: failure.required, balance: failure.balance },
      );
    case 'BalanceUnavailable':
      return new HttpError(503, 'token balance cannot be checked right now; retry later', { code: 'balance_unavailable' }, { 'Retry-After': String(failure.retryAfterS) });
  }
}
