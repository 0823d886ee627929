import * as t from 'io-ts';
import { isWalletAddress } from '../../../domain/identity/wallet-address.js';
import { documented } from '../openapi/codec-schema.js';
import { boundedString, described, LimitFromQuery, NullableString } from './common.codecs.js';

const BASE58_32 = '^[1-9A-HJ-NP-Za-km-z]{32,44}$';

/** A Solana address: canonical base58 of 32 bytes (a wallet's public key, or a mint). */
export const SolanaAddress = documented(
  new t.Type<string, string, unknown>(
    'SolanaAddress',
    (u): u is string => typeof u === 'string' && isWalletAddress(u),
    (u, c) =>
      u === undefined
        ? t.failure(u, c, 'is required')
        : typeof u === 'string' && isWalletAddress(u)
          ? t.success(u)
          : t.failure(u, c, 'must be a base58 Solana address (a 32-byte public key)'),
    t.identity,
  ),
  { type: 'string', pattern: BASE58_32, description: 'Base58 Solana address (32-byte public key).' },
);

export const NonNegativeNumber = documented(
  new t.Type<number, number, unknown>(
    'minimum',
    (u): u is number => typeof u === 'number',
    (u, c) =>
      u === undefined
        ? t.failure(u, c, 'is required')
        : typeof u === 'number' && Number.isFinite(u) && u >= 0
          ? t.success(u)
          : t.failure(u, c, 'must be a number ≥ 0'),
    t.identity,
  ),
  { type: 'number', minimum: 0, description: 'Minimum balance in whole tokens (ui amount).' },
);

export const ConnectBody = t.type({ wallet_address: SolanaAddress }, 'WalletConnect');

export const VerifyBody = t.type(
  {
    wallet_address: SolanaAddress,
    signature: documented(boundedString(1, 200), { type: 'string', description: 'Base64 of the 64-byte Ed25519 signature over the UTF-8 challenge.' }),
    challenge: documented(boundedString(1, 2000), { type: 'string', description: 'The challenge text exactly as returned by /v1/auth/wallet/connect.' }),
  },
  'WalletVerify',
);

export const CreateKeyBody = t.type(
  { name: documented(boundedString(1, 200, 'key name'), { type: 'string', minLength: 1, maxLength: 100, description: 'Trimmed; 1 to 100 characters after trimming, no control characters.' }) },
  'CreateApiKey',
);
export const KeyIdParams = t.type({ key_id: boundedString(1, 64) });

/** GET /v1/keys: a page of at most `limit` keys (default 50), after `cursor`. */
export const KeyListQuery = t.partial(
  {
    limit: LimitFromQuery,
    cursor: documented(boundedString(1, 200, 'key cursor'), { type: 'string', description: 'Opaque; the next_cursor of the previous page.' }),
  },
  'ApiKeyListQuery',
);

export const AccessCheckBody = t.type(
  {
    owner: SolanaAddress,
    mint: SolanaAddress,
    minimum: NonNegativeNumber,
  },
  'AccessCheck',
);

// Responses (documentation, and response checks in tests).
export const ChallengeResponse = t.type({ challenge: t.string, nonce: t.string, expires_at: t.string }, 'SignInChallenge');
export const TokenResponse = t.type(
  { access_token: t.string, token_type: t.literal('Bearer'), expires_in: t.number, wallet_address: t.string },
  'DashboardToken',
);
export const CreatedKeyResponse = t.type({ key_id: t.string, key: t.string, name: t.string, prefix: t.string, created_at: t.string }, 'CreatedApiKey');
export const KeySummaryResponse = t.type(
  {
    key_id: t.string,
    name: t.string,
    prefix: t.string,
    created_at: t.string,
    last_used_at: NullableString,
    request_count: t.number,
    error_count: t.number,
    error_rate: t.number,
  },
  'ApiKeySummary',
);
export const KeyListResponse = t.type({ items: t.array(KeySummaryResponse), next_cursor: NullableString }, 'ApiKeyList');
export const AccessCheckResponse = t.type({ allowed: t.boolean, reason: t.string, balance: t.number }, 'AccessCheckResult');

const days = documented(
  new t.Type<number, number, unknown>(
    'days',
    (u): u is number => typeof u === 'number',
    (u, c) => {
      const n = typeof u === 'string' && /^\d{1,3}$/.test(u) ? Number(u) : NaN;
      return n >= 1 && n <= 90 ? t.success(n) : t.failure(u, c, 'must be an integer from 1 to 90');
    },
    t.identity,
  ),
  { type: 'integer', minimum: 1, maximum: 90, default: 30 },
);

/** GET /v1/keys/{key_id}/usage */
export const KeyUsageQuery = t.partial({ days }, 'KeyUsageQuery');

export const KeyUsageDayResponse = t.type(
  { day: described(t.string, { type: 'string', format: 'date', description: 'The UTC day.' }), request_count: t.number, error_count: t.number },
  'KeyUsageDay',
);
export const KeyUsageResponse = t.type({ key_id: t.string, days: t.number, items: t.array(KeyUsageDayResponse) }, 'KeyUsage');
