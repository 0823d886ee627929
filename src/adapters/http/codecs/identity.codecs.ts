import * as t from 'io-ts';
import { isWalletAddress } from '../../../domain/identity/wallet-address.js';
import { documented } from '../openapi/codec-schema.js';
import { boundedString } from './common.codecs.js';

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
export const AccessCheckResponse = t.type({ allowed: t.boolean, reason: t.string, balance: t.number }, 'AccessCheckResult');
