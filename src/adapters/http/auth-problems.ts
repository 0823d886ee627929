import type { AuthFailure } from '../../application/ports/authenticator.js';
import type { RobotNotAllowed } from '../../domain/identity/key-grant.js';
import { toRfc3339 } from '../../domain/protocol/datetime.js';
import { HttpError } from './http-error.js';

/** A bound API key spoke for another robot: 403 naming it, as the key's scope refusals are 403. */
export function robotProblem(e: RobotNotAllowed): HttpError {
  const detail =
    e.robotId === null
      ? 'this API key acts only for the robots it is bound to, and this request names no robot'
      : `this API key acts only for the robots it is bound to, not for robot ${JSON.stringify(e.robotId)}`;
  return new HttpError(403, detail, { code: 'robot_not_allowed', robot_id: e.robotId });
}

/** The one place an authentication failure becomes a status (docs/identity.md, "What is checked"). */
export function authProblem(failure: AuthFailure): HttpError {
  switch (failure._tag) {
    case 'MissingCredential':
      return new HttpError(
        401,
        'missing credential: send Authorization: Bearer <API key or token>',
        { code: 'missing_credential' },
        { 'WWW-Authenticate': 'Bearer' },
      );
    case 'InvalidApiKey':
      return new HttpError(401, 'invalid API key', { code: 'invalid_api_key' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'DisabledApiKey':
      return new HttpError(
        401,
        `this API key is disabled (since ${toRfc3339(failure.disabledAtMs)}); its owner can enable it again`,
        { code: 'disabled_api_key' },
        { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      );
    case 'ExpiredApiKey':
      return new HttpError(
        401,
        `this API key expired at ${toRfc3339(failure.expiredAtMs)}`,
        { code: 'expired_api_key' },
        { 'WWW-Authenticate': 'Bearer error="invalid_token"' },
      );
    case 'InsufficientScope':
      return new HttpError(
        403,
        `this API key lacks the scope ${failure.scope}, which this route needs`,
        { code: 'insufficient_scope', scope: failure.scope },
        { 'WWW-Authenticate': `Bearer error="insufficient_scope", scope="${failure.scope}"` },
      );
    case 'InvalidToken':
      return new HttpError(401, 'invalid token', { code: 'invalid_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'ExpiredToken':
      return new HttpError(401, 'expired token: sign in again', { code: 'expired_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'RevokedToken':
      return new HttpError(401, 'this token was signed out: sign in again', { code: 'revoked_token' }, { 'WWW-Authenticate': 'Bearer error="invalid_token"' });
    case 'CredentialKindNotAllowed':
      return new HttpError(
        401,
        failure.allowed.includes('api_key')
          ? 'this route takes an API key or a dashboard token'
          : 'this route takes a dashboard token (JWT) from wallet sign-in, not an API key',
        { code: 'wrong_credential_kind' },
        { 'WWW-Authenticate': 'Bearer' },
      );
    case 'MissingWalletHeader':
      return new HttpError(401, 'missing X-Wallet-Address header', { code: 'missing_wallet_header' });
    case 'WalletMismatch':
      return new HttpError(403, 'X-Wallet-Address does not match the wallet of the credential', { code: 'wallet_mismatch' });
    case 'InsufficientBalance':
      return new HttpError(403, `insufficient token balance: at least ${failure.required} access tokens required, the wallet holds ${failure.balance}`, {
        code: 'insufficient_balance',
        required: failure.required,
        balance: failure.balance,
      });
    case 'BalanceUnavailable':
      return new HttpError(
        503,
        'token balance cannot be checked right now; retry later',
        { code: 'balance_unavailable' },
        { 'Retry-After': String(failure.retryAfterS) },
      );
  }
}
