import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';
import { CreateApiKey } from '../application/identity/create-api-key.js';
import { DeleteApiKey } from '../application/identity/delete-api-key.js';
import { KeyLookupCache } from '../application/identity/key-lookup-cache.js';
import { ListApiKeys } from '../application/identity/list-api-keys.js';
import { BalanceCache } from '../application/identity/balance-cache.js';
import { CheckAccess } from '../application/identity/check-access.js';
import { CompleteSignIn } from '../application/identity/complete-sign-in.js';
import { KeyUsageRecorder } from '../application/identity/key-usage-recorder.js';
import { StartSignIn } from '../application/identity/start-sign-in.js';
import { TokenGate } from '../application/identity/token-gate.js';
import { WalletAuthenticator } from '../application/identity/wallet-authenticator.js';
import type { Authenticator, Principal } from '../application/ports/authenticator.js';
import type { Clock } from '../application/ports/clock.js';
import type { KeyStore } from '../application/ports/key-store.js';
import type { RateLimiter } from '../application/ports/rate-limiter.js';
import type { TokenBalance } from '../application/ports/token-balance.js';
import { LOCAL_ACCESS_MINT, type Config } from '../config.js';
import { chainIdFor } from '../domain/identity/sign-in-message.js';
import { NodeEd25519 } from './crypto/node-ed25519.js';
import { NodeIdentityCrypto } from './crypto/node-identity-crypto.js';
import { authFailureToHttp } from './http/auth-failure-status.js';
import type { AnyRoute } from './http/route.js';
import { identityRoutes } from './http/routes/identity-routes.js';
import { JsonwebtokenTokenIssuer } from './jwt/jsonwebtoken-token-issuer.js';
import { loadOrCreateJwtSecret } from './jwt/jwt-secret-file.js';
import { PromIdentityMetrics } from './prom-identity-metrics.js';
import { memoryRateLimiter } from './rate-limit/memory-rate-limiter.js';
import { redisRateLimiter } from './rate-limit/redis-rate-limiter.js';
import { SolanaTokenBalance } from './solana/solana-token-balance.js';
import type { Database } from './sql/database.js';
import { KnexKeyStore } from './sql/knex-key-store.js';
import { KnexLedgerBalance } from './sql/knex-ledger-balance.js';
import { KnexNonceStore } from './sql/knex-nonce-store.js';
import { KeyStoreUsageTotals } from '../application/fleet/key-store-usage-totals.js';
import type { KeyUsageTotals } from '../application/fleet/get-wallet-stats.js';
import { GetKeyUsage } from '../application/dashboard/get-key-usage.js';
import { KeyDayTally } from '../application/dashboard/usage-tallies.js';
import { keyUsageRoutes } from './http/routes/dashboard-routes.js';
import { KnexKeyUsageHistory } from './sql/knex-usage-counters.js';

export interface Identity {
  readonly authenticator: Authenticator;
  readonly rateLimiter: RateLimiter;
  /** Counts each response to an API-key request into that key's usage figures. */
  readonly onAuthenticatedResponse: (principal: Principal, status: number) => void;
  readonly routes: readonly AnyRoute[];
  /** One line for the start-up log: where token balances come from. */
  readonly describeBalanceSource: string;
  /** The API keys, for other features that report key usage (wallet statistics). */
  readonly keyStore: KeyStore;
  /** Writes the key usage counted so far, so a read of the KeyStore includes it. */
  flushUsage(): Promise<void>;
  /** Per-wallet request and error totals over its keys, including counts not yet written. */
  readonly keyUsage: KeyUsageTotals;
  /** Writes pending key usage and closes the Redis connection, if any. */
  close(): Promise<void>;
}

/** Test seams; production passes none. */
export interface IdentityOverrides {
  readonly balanceSource?: TokenBalance;
  readonly rateLimitKeyPrefix?: string;
  readonly usageFlushIntervalMs?: number;
}

/**
 * Builds sign-in, API keys, the token gate and rate limits on an opened, migrated database.
 * The balance source follows the configuration: Solana RPC when SOLANA_RPC_URL is set,
 * otherwise the local ledger table; either way behind the balance cache.
 */
export async function createIdentity(
  config: Config,
  database: Database,
  clock: Clock,
  logger: Logger,
  metricsRegistry: Registry,
  overrides: IdentityOverrides = {},
): Promise<Identity> {
  const metrics = new PromIdentityMetrics(metricsRegistry);
  const crypto = new NodeIdentityCrypto();
  const keys = new KeyLookupCache(new KnexKeyStore(database), clock, { ttlMs: config.apiKeyCacheTtlS * 1000 });
  const nonces = new KnexNonceStore(database);

  const source =
    overrides.balanceSource ??
    (config.solanaRpcUrl !== null
      ? new SolanaTokenBalance({ rpcUrl: config.solanaRpcUrl, timeoutMs: config.solanaRpcTimeoutMs, observer: metrics })
      : new KnexLedgerBalance(database));
  const policy = `mint ${config.accessTokenMint}, minimum ${config.accessMinBalance}, cache ${config.balanceCacheTtlS} s, grace ${config.balanceGraceS} s`;
  const describeBalanceSource = overrides.balanceSource
    ? `custom balance source (${policy})`
    : config.solanaRpcUrl !== null
      ? `Solana RPC at ${redactUrl(config.solanaRpcUrl)} (${policy})`
      : `local ledger in the database (${policy}); set balances with: proof-registry ledger set <wallet> <amount>`;
  if (config.solanaRpcUrl !== null && config.accessTokenMint === LOCAL_ACCESS_MINT) {
    logger.warn('SOLANA_RPC_URL is set but ACCESS_TOKEN_MINT is the local placeholder: no wallet holds it, so every request will get 403. Set ACCESS_TOKEN_MINT.');
  }
  const cache = new BalanceCache(source, clock, { ttlS: config.balanceCacheTtlS, graceS: config.balanceGraceS }, metrics);
  const gate = new TokenGate(cache, { mint: config.accessTokenMint, minimum: config.accessMinBalance }, metrics);

  let secret = config.jwtSecret;
  if (secret === null) {
    const kept = await loadOrCreateJwtSecret(config.dataDir);
    secret = kept.secret;
    logger.info({ file: kept.file }, kept.created ? 'JWT_SECRET unset: generated a JWT secret' : 'JWT_SECRET unset: using the JWT secret kept in the data directory');
    if (database.dialect === 'postgres') {
      logger.warn(
        'JWT_SECRET is not set but the database is PostgreSQL: if several instances serve this database, each has its own secret and refuses the others\' tokens. Set the same JWT_SECRET on every instance.',
      );
    }
  }
  const tokens = new JsonwebtokenTokenIssuer({ secret, ttlS: config.jwtTtlS, issuer: config.publicOrigin, audience: 'proof-registry' }, clock);

  const limits = { perMinute: config.rateLimitPerMin, signInPerMinute: config.signInRateLimitPerMin };
  const redisUp =
    config.redisUrl === null
      ? null
      : new Gauge({ name: 'rate_limit_redis_up', help: '1 while rate limits are shared through Redis (REDIS_URL), 0 while each instance limits on its own.', registers: [metricsRegistry] });
  const redis =
    config.redisUrl === null
      ? null
      : await redisRateLimiter(config.redisUrl, limits, {
          ...(overrides.rateLimitKeyPrefix ? { keyPrefix: overrides.rateLimitKeyPrefix } : {}),
          onConnectionChange: (change) => {
            redisUp?.set(change.state === 'restored' ? 1 : 0);
            if (change.state === 'lost') logger.warn({ reason: change.reason }, 'Redis stopped answering: rate limits are per instance until it does again');
            else logger.info('Redis answers again: rate limits are shared between instances');
          },
        });
  redisUp?.set(redis?.connected ? 1 : 0);
  if (redis && !redis.connected) logger.warn('REDIS_URL is set but Redis does not answer: rate limits are per instance until it does');
  const rateLimiter = redis?.limiter ?? memoryRateLimiter(limits);

  const usage = new KeyUsageRecorder(keys);
  // The same counts by UTC day, for the per-key chart.
  const usageHistory = new KnexKeyUsageHistory(database);
  const usageDays = new KeyDayTally(usageHistory);
  const record = (keyId: string, status: number) => {
    const now = clock.nowMs();
    usage.record(keyId, status, now);
    usageDays.record(keyId, status, now);
  };
  const flushUsage = () =>
    Promise.all([usage.flush(), usageDays.flush()]).then(
      () => undefined,
      (err: unknown) => logger.error({ err }, 'writing API key usage failed; will retry'),
    );
  const timer = setInterval(flushUsage, overrides.usageFlushIntervalMs ?? 1000);
  timer.unref();

  const routes = [
    ...identityRoutes({
      startSignIn: new StartSignIn(nonces, crypto, clock, { origin: config.publicOrigin, chainId: chainIdFor(config.solanaRpcUrl) }),
      completeSignIn: new CompleteSignIn(nonces, new NodeEd25519(), gate, tokens, clock, metrics),
      createKey: new CreateApiKey(keys, crypto, crypto, clock),
      listKeys: new ListApiKeys(keys, usage),
      deleteKey: new DeleteApiKey(keys),
      checkAccess: new CheckAccess(cache),
    }),
    ...keyUsageRoutes({ usage: new GetKeyUsage(keys, usageHistory, usageDays, clock) }),
  ];

  return {
    authenticator: new WalletAuthenticator(keys, crypto, tokens, gate, metrics, (keyId, failure) => record(keyId, authFailureToHttp(failure).status)),
    rateLimiter,
    onAuthenticatedResponse: (principal, status) => {
      if (principal.keyId !== null) record(principal.keyId, status);
    },
    routes,
    describeBalanceSource,
    keyStore: keys,
    flushUsage: () => usage.flush(),
    keyUsage: {
      totals: async (wallet: string) => {
        await usage.flush();
        return new KeyStoreUsageTotals(keys).totals(wallet);
      },
    },
    close: async () => {
      clearInterval(timer);
      await flushUsage();
      await redis?.close();
    },
  };
}

/** The RPC URL for logs: providers put API keys in the path or query, so only the origin is shown. */
function redactUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
