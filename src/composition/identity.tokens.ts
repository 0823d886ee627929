import type { HttpAccess } from '../adapters/http/access.js';
import type { AnyRoute } from '../adapters/http/route.js';
import type { NodeIdentityCrypto } from '../adapters/crypto/node-identity-crypto.js';
import type { PromIdentityMetrics } from '../adapters/metrics/prom-identity-metrics.js';
import type { KeyUsageTotals } from '../application/fleet/get-wallet-stats.js';
import type { BalanceCache } from '../application/identity/balance-cache.js';
import type { CheckAccess } from '../application/identity/check-access.js';
import type { CompleteSignIn } from '../application/identity/complete-sign-in.js';
import type { CreateApiKey } from '../application/identity/create-api-key.js';
import type { DeleteApiKey } from '../application/identity/delete-api-key.js';
import type { GetKeyUsage } from '../application/identity/get-key-usage.js';
import type { KeyDayTally, KeyEndpointTally } from '../application/identity/key-day-tally.js';
import type { KeyUsageRecorder } from '../application/identity/key-usage-recorder.js';
import type { ListApiKeys } from '../application/identity/list-api-keys.js';
import type { UpdateApiKey } from '../application/identity/update-api-key.js';
import type { StartSignIn } from '../application/identity/start-sign-in.js';
import type { TokenGate } from '../application/identity/token-gate.js';
import type { Authenticator } from '../application/ports/authenticator.js';
import type { KeyStore } from '../application/ports/key-store.js';
import type { NonceStore } from '../application/ports/nonce-store.js';
import type { OwnerLookups } from '../application/ports/owner-lookups.js';
import type { RateLimiter } from '../application/ports/rate-limiter.js';
import type { RevokedTokens } from '../application/ports/revoked-tokens.js';
import type { SignOut } from '../application/identity/sign-out.js';
import type { TokenBalance } from '../application/ports/token-balance.js';
import type { TokenIssuer } from '../application/ports/token-issuer.js';
import type { KeyUsageHistory } from '../application/ports/usage-series.js';
import { token } from './token.js';

/** Knobs of the identity slice that no setting exposes; tests turn them. */
export interface IdentitySettings {
  /** How often counted API-key usage (totals and days) is written; also before a key list, a statistic or a usage chart, and on stop. */
  readonly usageFlushIntervalMs: number;
  /** Prefix of the rate-limit and owner-lookup keys in Redis (tests keep theirs apart). */
  readonly rateLimitKeyPrefix?: string;
}

/** The identity slice: wallet sign-in, API keys, the token gate, rate limits and key usage. */
export const IDENTITY = {
  Settings: token<IdentitySettings>('identity.Settings'),
  Metrics: token<PromIdentityMetrics>('identity.Metrics'),
  Crypto: token<NodeIdentityCrypto>('identity.Crypto'),
  /** The API keys, behind the lookup cache (API_KEY_CACHE_TTL_S). */
  KeyStore: token<KeyStore>('identity.KeyStore'),
  NonceStore: token<NonceStore>('identity.NonceStore'),
  /** Signed-out dashboard tokens, in the database so every instance honours a sign-out. */
  RevokedTokens: token<RevokedTokens>('identity.RevokedTokens'),
  SignOut: token<SignOut>('identity.SignOut'),
  /** Where balances come from: Solana RPC when SOLANA_RPC_URL is set, else the local ledger. */
  TokenBalance: token<TokenBalance>('identity.TokenBalance'),
  /** The token gate's balances: only wallets that presented a valid credential. */
  BalanceCache: token<BalanceCache>('identity.BalanceCache'),
  /** Balances asked by POST /v1/access/check, for any owner: apart from the gate's. */
  AccessCheckCache: token<BalanceCache>('identity.AccessCheckCache'),
  TokenGate: token<TokenGate>('identity.TokenGate'),
  TokenIssuer: token<TokenIssuer>('identity.TokenIssuer'),
  RateLimiter: token<RateLimiter>('identity.RateLimiter'),
  OwnerLookups: token<OwnerLookups>('identity.OwnerLookups'),
  UsageRecorder: token<KeyUsageRecorder>('identity.UsageRecorder'),
  /** Each key's requests and errors per UTC day, as written. */
  KeyUsageHistory: token<KeyUsageHistory>('identity.KeyUsageHistory'),
  /** The same, counted wherever the usage recorder counts and written with it. */
  KeyDayTally: token<KeyDayTally>('identity.KeyDayTally'),
  KeyEndpointTally: token<KeyEndpointTally>('identity.KeyEndpointTally'),
  Authenticator: token<Authenticator>('identity.Authenticator'),
  /** Who may call and how often, and usage counting: what the HTTP edge takes from this slice. */
  Access: token<HttpAccess>('identity.Access'),
  /** Per-wallet request and error totals over its keys, pending counts included: for the wallet statistics. */
  KeyUsageTotals: token<KeyUsageTotals>('identity.KeyUsageTotals'),
  StartSignIn: token<StartSignIn>('identity.StartSignIn'),
  CompleteSignIn: token<CompleteSignIn>('identity.CompleteSignIn'),
  CreateApiKey: token<CreateApiKey>('identity.CreateApiKey'),
  ListApiKeys: token<ListApiKeys>('identity.ListApiKeys'),
  UpdateApiKey: token<UpdateApiKey>('identity.UpdateApiKey'),
  DeleteApiKey: token<DeleteApiKey>('identity.DeleteApiKey'),
  GetKeyUsage: token<GetKeyUsage>('identity.GetKeyUsage'),
  CheckAccess: token<CheckAccess>('identity.CheckAccess'),
  Routes: token<readonly AnyRoute[]>('identity.Routes'),
} as const;
