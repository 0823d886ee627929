import type { Logger } from 'pino';
import { Gauge } from 'prom-client';
import type { HttpMetrics } from '../adapters/http/http-metrics.js';
import { JsonwebtokenTokenIssuer } from '../adapters/jwt/jsonwebtoken-token-issuer.js';
import { loadOrCreateJwtSecret } from '../adapters/jwt/jwt-secret-file.js';
import type { PromIdentityMetrics } from '../adapters/metrics/prom-identity-metrics.js';
import { memoryRateLimiter } from '../adapters/rate-limit/memory-rate-limiter.js';
import { redisOwnerLookups } from '../adapters/rate-limit/redis-owner-lookups.js';
import { redisRateLimiter } from '../adapters/rate-limit/redis-rate-limiter.js';
import { SolanaTokenBalance } from '../adapters/solana/solana-token-balance.js';
import type { Database } from '../adapters/sql/database.js';
import { KnexLedgerBalance } from '../adapters/sql/knex-ledger-balance.js';
import { OwnerLookupLimit } from '../application/identity/owner-lookup-limit.js';
import type { Clock } from '../application/ports/clock.js';
import type { OwnerLookups } from '../application/ports/owner-lookups.js';
import type { RateLimiter } from '../application/ports/rate-limiter.js';
import type { TokenBalance } from '../application/ports/token-balance.js';
import type { TokenIssuer } from '../application/ports/token-issuer.js';
import { LOCAL_ACCESS_MINT, type Config } from '../config.js';
import type { IdentitySettings } from './identity.tokens.js';
import type { Lifecycle } from './lifecycle.js';

/**
 * The identity slice's adapters that the configuration chooses between, each saying in the
 * start-up log what was chosen and warning about a choice that cannot work.
 */

/** Solana RPC when SOLANA_RPC_URL is set, otherwise the local ledger table; behind the balance cache either way. */
export function balanceSource(config: Config, database: Database, metrics: PromIdentityMetrics, logger: Logger): TokenBalance {
  const policy = `mint ${config.accessTokenMint}, minimum ${config.accessMinBalance}, cache ${config.balanceCacheTtlS} s, grace ${config.balanceGraceS} s`;
  if (config.solanaRpcUrl === null) {
    logger.info(`token balances: local ledger in the database (${policy}); set balances with: proof-registry ledger set <wallet> <amount>`);
    return new KnexLedgerBalance(database);
  }
  logger.info(`token balances: Solana RPC at ${redactUrl(config.solanaRpcUrl)} (${policy})`);
  if (config.accessTokenMint === LOCAL_ACCESS_MINT) {
    logger.warn(
      'SOLANA_RPC_URL is set but ACCESS_TOKEN_MINT is the local placeholder: no wallet holds it, so every request will get 403. Set ACCESS_TOKEN_MINT.',
    );
  }
  return new SolanaTokenBalance({ rpcUrl: config.solanaRpcUrl, timeoutMs: config.solanaRpcTimeoutMs, observer: metrics });
}

/** Dashboard tokens signed with JWT_SECRET, or with a secret generated once and kept in the data directory. */
export async function tokenIssuer(config: Config, database: Database, clock: Clock, logger: Logger): Promise<TokenIssuer> {
  let secret = config.jwtSecret;
  if (secret === null) {
    const kept = await loadOrCreateJwtSecret(config.dataDir);
    secret = kept.secret;
    logger.info(
      { file: kept.file },
      kept.created ? 'JWT_SECRET unset: generated a JWT secret' : 'JWT_SECRET unset: using the JWT secret kept in the data directory',
    );
    if (database.dialect === 'postgres') {
      logger.warn(
        "JWT_SECRET is not set but the database is PostgreSQL: if several instances serve this database, each has its own secret and refuses the others' tokens. Set the same JWT_SECRET on every instance.",
      );
    }
  }
  return new JsonwebtokenTokenIssuer({ secret, ttlS: config.jwtTtlS, issuer: config.publicOrigin, audience: 'proof-registry' }, clock);
}

/** Limits shared through Redis when REDIS_URL is set (per instance while it does not answer), else per instance. */
export async function rateLimiter(
  config: Config,
  settings: IdentitySettings,
  metrics: HttpMetrics,
  logger: Logger,
  lifecycle: Lifecycle,
): Promise<RateLimiter> {
  const limits = { perMinute: config.rateLimitPerMin, walletPerMinute: config.walletRateLimitPerMin, signInPerMinute: config.signInRateLimitPerMin };
  if (config.redisUrl === null) return memoryRateLimiter(limits);
  const redisUp = new Gauge({
    name: 'rate_limit_redis_up',
    help: '1 while rate limits are shared through Redis (REDIS_URL), 0 while each instance limits on its own.',
    registers: [metrics.registry],
  });
  const redis = await redisRateLimiter(config.redisUrl, limits, {
    ...(settings.rateLimitKeyPrefix ? { keyPrefix: settings.rateLimitKeyPrefix } : {}),
    onConnectionChange: (change) => {
      redisUp.set(change.state === 'restored' ? 1 : 0);
      if (change.state === 'lost') logger.warn({ reason: change.reason }, 'Redis stopped answering: rate limits are per instance until it does again');
      else logger.info('Redis answers again: rate limits are shared between instances');
    },
  });
  lifecycle.onStop(() => redis.close());
  redisUp.set(redis.connected ? 1 : 0);
  if (!redis.connected) logger.warn('REDIS_URL is set but Redis does not answer: rate limits are per instance until it does');
  return redis.limiter;
}

/** Access checks' distinct owners per wallet and minute: shared through Redis when REDIS_URL is set, as the rate limits are; else per instance. */
export async function ownerLookups(config: Config, settings: IdentitySettings, clock: Clock, lifecycle: Lifecycle): Promise<OwnerLookups> {
  const own = new OwnerLookupLimit(clock, config.accessCheckOwnersPerMin);
  if (config.redisUrl === null) return own;
  const redis = await redisOwnerLookups(config.redisUrl, clock, config.accessCheckOwnersPerMin, {
    fallback: own,
    ...(settings.rateLimitKeyPrefix ? { keyPrefix: settings.rateLimitKeyPrefix } : {}),
  });
  lifecycle.onStop(() => redis.close());
  return redis.lookups;
}

/** The RPC URL for logs: providers put API keys in the path or query, so only the origin is shown. */
function redactUrl(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return '(invalid URL)';
  }
}
