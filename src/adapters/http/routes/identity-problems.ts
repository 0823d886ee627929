import type { InvalidAddress, TooManyOwners } from '../../../application/identity/check-access.js';
import type { SignInFailure } from '../../../application/identity/complete-sign-in.js';
import type { TooManyKeys } from '../../../application/identity/create-api-key.js';
import type { KeyNotFound } from '../../../application/identity/delete-api-key.js';
import type { NotASession } from '../../../application/identity/sign-out.js';
import { describeInvalidText, type InvalidText } from '../../../domain/fleet/names.js';
import type { InvalidKeyGrant } from '../../../domain/identity/key-grant.js';
import { authProblem } from '../auth-problems.js';
import { HttpError } from '../http-error.js';

/** A key-list cursor this service did not issue (key cursors are made and read at the edge). */
export type InvalidKeyCursor = { readonly _tag: 'InvalidKeyCursor' };

/** Every business failure of the identity use cases (sign-in, keys, access checks). */
export type IdentityFailure =
  SignInFailure | TooManyKeys | InvalidText | KeyNotFound | InvalidAddress | TooManyOwners | NotASession | InvalidKeyCursor | InvalidKeyGrant;

/** Each failure to its status: 401 for every challenge or signature problem; balance failures as authentication makes them. */
export function identityProblem(f: IdentityFailure): HttpError {
  const unauthorized = (detail: string, code: string) => new HttpError(401, detail, { code });
  switch (f._tag) {
    case 'InvalidWalletAddress':
      return new HttpError(422, 'wallet_address must be a base58 Solana address', { code: 'validation_error' });
    case 'InvalidAddress':
      return new HttpError(422, `${f.field} must be a base58 Solana address`, { code: 'validation_error' });
    case 'MalformedChallenge':
      return unauthorized('challenge is not a sign-in message issued by this service', 'malformed_challenge');
    case 'UnknownChallenge':
      return unauthorized('unknown challenge: request a new one from /v1/auth/wallet/connect', 'unknown_challenge');
    case 'ChallengeMismatch':
      return unauthorized('challenge does not match the one issued to this wallet', 'challenge_mismatch');
    case 'ChallengeExpired':
      return unauthorized('challenge expired: request a new one from /v1/auth/wallet/connect', 'challenge_expired');
    case 'ChallengeAlreadyUsed':
      return unauthorized('challenge already used: request a new one from /v1/auth/wallet/connect', 'challenge_used');
    case 'InvalidSignature':
      return unauthorized(`invalid signature: ${f.detail}`, 'invalid_signature');
    case 'InsufficientBalance':
    case 'BalanceUnavailable':
      return authProblem(f);
    case 'TooManyKeys':
      return new HttpError(409, `a wallet can have at most ${f.max} API keys; delete one first`, { code: 'too_many_keys' });
    case 'InvalidText':
      return new HttpError(422, describeInvalidText(f), { code: 'validation_error', path: f.field });
    case 'KeyNotFound':
      return new HttpError(404, `API key ${f.keyId} not found`, { code: 'not_found' });
    case 'TooManyOwners':
      return new HttpError(
        429,
        `a wallet may look up at most ${f.perMinute} different owners per minute; retry in ${f.retryAfterS} s`,
        { code: 'rate_limited' },
        { 'Retry-After': String(f.retryAfterS) },
      );
    case 'NotASession':
      return new HttpError(401, 'signing out takes the dashboard token (JWT) to revoke', { code: 'wrong_credential_kind' });
    case 'InvalidKeyGrant':
      return new HttpError(422, f.detail, { code: 'validation_error', path: f.field });
    case 'InvalidKeyCursor':
      return new HttpError(422, 'cursor is not one this service issued', { code: 'invalid_cursor' });
  }
}
