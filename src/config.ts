import type { SqliteSynchronous } from './adapters/sql/database.js';
import { isWalletAddress } from './domain/identity/wallet-address.js';

/**
 * Service configuration from environment variables (docs/configuration.md). Every
 * value is validated at start; a bad one stops the service with a message naming it.
 */
export interface Config {
  readonly port: number;
  readonly host: string;
  readonly databaseUrl: string;
  readonly solanaRpcUrl: string | null;
  readonly accessTokenMint: string;
  readonly accessMinBalance: number;
  readonly balanceCacheTtlS: number;
  /** How long a wallet that passed the gate stays admitted while the balance source is down. */
  readonly balanceGraceS: number;
  /** How long an API key that authenticated is served from memory (0: looked up every time). */
  readonly apiKeyCacheTtlS: number;
  readonly solanaRpcTimeoutMs: number;
  readonly jwtSecret: string | null;
  readonly jwtTtlS: number;
  readonly rateLimitPerMin: number;
  readonly walletRateLimitPerMin: number;
  /** Distinct owners one wallet may look up per minute in POST /v1/access/check. */
  readonly accessCheckOwnersPerMin: number;
  /** Balances remembered for access checks (apart from the gate's). */
  readonly accessCheckCacheEntries: number;
  /** PostgreSQL: connections for reads of proofs, apart from the 10 everything else uses. */
  readonly databaseReadPoolSize: number;
  readonly signInRateLimitPerMin: number;
  readonly redisUrl: string | null;
  readonly publicOrigin: string;
  readonly logLevel: string;
  readonly bodyLimitBytes: number;
  readonly batchBodyLimitBytes: number;
  readonly maxEvents: number;
  readonly maxDepth: number;
  readonly maxBatch: number;
  readonly verifyWorkers: number;
  /**
   * Niceness added to every thread but the event loop (verify workers, the writer thread,
   * libuv's pool, V8's helpers), Linux only; 0 leaves priorities alone; null (unset): the
   * default for the machine's cores (helperNiceFor). See thread-priority.ts.
   */
  readonly helperThreadNice: number | null;
  /** Proof write transactions on a writer thread with its own connection (SQLite file, PostgreSQL). */
  readonly writerThread: boolean;
  /** Reverse proxies in front of the service: the client address is that many entries from the right of X-Forwarded-For (0: the socket's peer). */
  readonly trustProxy: number;
  readonly dataDir: string;
  readonly deviceOnlineWindowS: number;
  readonly deviceOfflineAfterS: number;
  readonly healthHistoryLimit: number;
  readonly shutdownGraceMs: number;
  /** Seconds from a request's first byte to the end of its headers / of its body (Node measures both from the start, so trickling does not stretch them). */
  readonly headersTimeoutS: number;
  readonly requestTimeoutS: number;
  /** Seconds a keep-alive connection may sit idle between requests. */
  readonly keepAliveTimeoutS: number;
  /** Open connections in all (kept below the descriptor limit at start) and per client address (0: no per-address cap). */
  readonly maxConnections: number;
  readonly maxConnectionsPerIp: number;
  /** Compressed bodies, and bodies of unknown length or over 256 KiB, read and handled at once; and how many may wait. */
  readonly largeBodyConcurrency: number;
  readonly largeBodyQueue: number;
  /** Lists, searches and statistics answered at once, from query to serialized answer; and how many may wait. */
  readonly readConcurrency: number;
  readonly readQueue: number;
  /** How many of them one wallet may have waiting (429 past it); wallets take the slots in turns. */
  readonly readQueuePerWallet: number;
  /** Objects, arrays, strings and numbers one request body may hold. */
  readonly maxJsonValues: number;
  /** When set, GET /metrics needs `Authorization: Bearer <this>`. */
  readonly metricsToken: string | null;
  /** The transparency log's origin line and key name (docs/log.md); default `<host of PUBLIC_ORIGIN>/proof-registry`. */
  readonly logOrigin: string;
  /** The log's Ed25519 key file (the CLI's key file format); null: generated once in the data directory. */
  readonly logSigningKeyFile: string | null;
  /** Longest time from a proof's acknowledgement to a signed checkpoint that covers it. */
  readonly logCheckpointIntervalMs: number;
  /** The witness policy file (`witness <name> <vkey> <url>`, `quorum <n>`): the witnesses asked to cosign each checkpoint; null: none. */
  readonly logWitnessPolicyFile: string | null;
  /** Seconds after which the witnesses are asked again though the log has not grown, so cosignatures stay fresh. */
  readonly logWitnessIntervalS: number;
  /** Longest wait for one witness's answer. */
  readonly logWitnessTimeoutMs: number;
  /** Proofs get leaves as they are stored. Off only to measure what the log costs: proofs stored then never enter the log. */
  readonly logEnabled: boolean;
  /** SQLite: `full` syncs every commit before it is acknowledged; `normal` only at checkpoints (a power cut may lose the last acknowledged proofs). */
  readonly sqliteSynchronous: SqliteSynchronous;
  /** SQLite: past this many stored proofs the service warns (once) that PostgreSQL is the way on. */
  readonly sqliteProofsWarn: number;
  /** Events and the webhook delivery log are kept this long. */
  readonly eventRetentionDays: number;
  /** How often this instance looks for new events (streams, fan-out, logged proofs) and due deliveries. */
  readonly eventPollMs: number;
  /** How often devices silent past a status window are looked for. */
  readonly deviceSweepMs: number;
  /** Webhooks may reach loopback, private and link-local addresses (development and tests only). */
  readonly webhookAllowPrivate: boolean;
  /** One delivery attempt's deadline: connect, answer and the start of its body. */
  readonly webhookTimeoutMs: number;
  /** Attempts in flight at once on this instance, and of those to one endpoint. */
  readonly webhookConcurrency: number;
  readonly webhookPerEndpoint: number;
  /** An endpoint failing without a success for this long is turned off, with the reason. */
  readonly webhookDisableAfterS: number;
  /** Deliveries are posted from a thread below the event loop's priority (WEBHOOK_SENDER_THREAD, default true). */
  readonly webhookSenderThread: boolean;
  /** Above this share of the event loop's time spent busy, deliveries wait for the load to ease (WEBHOOK_YIELD_ABOVE; 1: never). */
  readonly webhookYieldAbove: number;
}

/** A placeholder mint for the local ledger, where no real token exists. */
export const LOCAL_ACCESS_MINT = 'LocaLedgerAccessToken1111111111111111111111';

export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: Readonly<Record<string, string | undefined>> = process.env): Config {
  const problems: string[] = [];
  const str = (name: string, fallback: string) => {
    const v = env[name];
    return v === undefined || v === '' ? fallback : v;
  };
  const opt = (name: string) => (env[name] === undefined || env[name] === '' ? null : env[name]!);
  const int = (name: string, fallback: number, min: number, max: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || n < min || n > max) {
      problems.push(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const num = (name: string, fallback: number, min: number) => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    const n = Number(raw);
    if (!Number.isFinite(n) || n < min) {
      problems.push(`${name} must be a number ≥ ${min} (got "${raw}")`);
      return fallback;
    }
    return n;
  };
  const share = (name: string, fallback: number) => {
    const n = num(name, fallback, 0);
    if (n > 1) problems.push(`${name} must be a share from 0 to 1 (got "${env[name]}")`);
    return Math.min(n, 1);
  };
  const url = (name: string, protocols: string[]) => {
    const raw = opt(name);
    if (raw === null) return null;
    try {
      const u = new URL(raw);
      if (!protocols.includes(u.protocol)) problems.push(`${name} must use ${protocols.join(' or ')} (got "${u.protocol}")`);
    } catch {
      problems.push(`${name} is not a URL (got "${raw}")`);
    }
    return raw;
  };

  const databaseUrl = str('DATABASE_URL', 'sqlite:./data/registry.sqlite');
  if (!/^(sqlite:.+|postgres(ql)?:\/\/.+)$/.test(databaseUrl)) {
    problems.push(`DATABASE_URL must be sqlite:<path>, sqlite::memory: or postgres://… (got "${databaseUrl}")`);
  }
  const publicOrigin = url('PUBLIC_ORIGIN', ['http:', 'https:']) ?? 'http://localhost:8080';
  const solanaRpcUrl = url('SOLANA_RPC_URL', ['http:', 'https:']);
  const sqliteSynchronous = str('SQLITE_SYNCHRONOUS', 'full').toLowerCase();
  if (sqliteSynchronous !== 'full' && sqliteSynchronous !== 'normal')
    problems.push(`SQLITE_SYNCHRONOUS must be full or normal (got "${env.SQLITE_SYNCHRONOUS}")`);
  const logLevel = str('LOG_LEVEL', 'info');
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel))
    problems.push(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent (got "${logLevel}")`);
  const mint = str('ACCESS_TOKEN_MINT', LOCAL_ACCESS_MINT);
  if (!isWalletAddress(mint)) problems.push(`ACCESS_TOKEN_MINT must be a base58 Solana address (got "${mint}")`);
  const jwtSecret = opt('JWT_SECRET');
  if (jwtSecret !== null && jwtSecret.length < 32) problems.push('JWT_SECRET must be at least 32 characters');
  const trust = str('TRUST_PROXY', 'false');
  const bool = (name: string, fallback: boolean) => {
    const raw = str(name, String(fallback)).toLowerCase();
    if (['true', '1', 'on', 'yes'].includes(raw)) return true;
    if (['false', '0', 'off', 'no'].includes(raw)) return false;
    problems.push(`${name} must be true or false (got "${env[name]}")`);
    return fallback;
  };
  // true is one proxy; a number says how many stand in front of the service.
  const trustHops = trust === 'true' ? 1 : trust === 'false' ? 0 : /^\d{1,2}$/.test(trust) ? Number(trust) : NaN;
  if (!Number.isInteger(trustHops) || trustHops > 16) problems.push(`TRUST_PROXY must be true, false or a number of proxies from 0 to 16 (got "${trust}")`);

  const config: Config = {
    port: int('PORT', 8080, 0, 65535),
    host: str('HOST', '127.0.0.1'),
    databaseUrl,
    solanaRpcUrl,
    accessTokenMint: mint,
    accessMinBalance: num('ACCESS_MIN_BALANCE', 50_000, 0),
    balanceCacheTtlS: int('BALANCE_CACHE_TTL_S', 60, 0, 86_400),
    balanceGraceS: int('BALANCE_GRACE_S', 600, 0, 86_400),
    apiKeyCacheTtlS: int('API_KEY_CACHE_TTL_S', 5, 0, 3_600),
    solanaRpcTimeoutMs: int('SOLANA_RPC_TIMEOUT_MS', 5_000, 100, 60_000),
    jwtSecret,
    jwtTtlS: int('JWT_TTL_S', 3600, 60, 30 * 86_400),
    rateLimitPerMin: int('RATE_LIMIT_PER_MIN', 600, 1, 1_000_000),
    walletRateLimitPerMin: int('WALLET_RATE_LIMIT_PER_MIN', 1_200, 1, 1_000_000),
    accessCheckOwnersPerMin: int('ACCESS_CHECK_OWNERS_PER_MIN', 100, 1, 1_000_000),
    databaseReadPoolSize: int('DATABASE_READ_POOL_SIZE', 8, 0, 1_000),
    accessCheckCacheEntries: int('ACCESS_CHECK_CACHE_ENTRIES', 10_000, 1, 10_000_000),
    signInRateLimitPerMin: int('SIGN_IN_RATE_LIMIT_PER_MIN', 20, 1, 1_000_000),
    redisUrl: url('REDIS_URL', ['redis:', 'rediss:']),
    publicOrigin,
    logLevel,
    bodyLimitBytes: int('BODY_LIMIT_BYTES', 1024 * 1024, 1024, 64 * 1024 * 1024),
    batchBodyLimitBytes: int('BATCH_BODY_LIMIT_BYTES', 16 * 1024 * 1024, 1024, 256 * 1024 * 1024),
    maxEvents: int('MAX_EVENTS_PER_PROOF', 10_000, 1, 1_000_000),
    maxDepth: int('MAX_JSON_DEPTH', 32, 4, 256),
    maxBatch: int('MAX_BATCH', 1_000, 1, 100_000),
    verifyWorkers: int('VERIFY_WORKERS', 0, 0, 64),
    helperThreadNice: opt('HELPER_THREAD_NICE') === null ? null : int('HELPER_THREAD_NICE', 0, 0, 19),
    writerThread: bool('WRITER_THREAD', true),
    trustProxy: Number.isInteger(trustHops) ? Math.min(trustHops, 16) : 0,
    dataDir: str('DATA_DIR', './data'),
    deviceOnlineWindowS: int('DEVICE_ONLINE_WINDOW_S', 300, 1, 30 * 86_400),
    deviceOfflineAfterS: int('DEVICE_OFFLINE_AFTER_S', 3600, 1, 365 * 86_400),
    healthHistoryLimit: int('HEALTH_HISTORY_LIMIT', 1000, 1, 1_000_000),
    shutdownGraceMs: int('SHUTDOWN_GRACE_MS', 10_000, 0, 600_000),
    headersTimeoutS: int('HEADERS_TIMEOUT_S', 10, 1, 600),
    requestTimeoutS: int('REQUEST_TIMEOUT_S', 60, 1, 3_600),
    keepAliveTimeoutS: int('KEEP_ALIVE_TIMEOUT_S', 65, 1, 3_600),
    maxConnections: int('MAX_CONNECTIONS', 4_096, 1, 1_000_000),
    maxConnectionsPerIp: int('MAX_CONNECTIONS_PER_IP', 256, 0, 1_000_000),
    largeBodyConcurrency: int('LARGE_BODY_CONCURRENCY', 2, 1, 1_024),
    largeBodyQueue: int('LARGE_BODY_QUEUE', 64, 0, 100_000),
    readConcurrency: int('READ_CONCURRENCY', 1, 1, 1_024),
    readQueue: int('READ_QUEUE', 64, 0, 100_000),
    readQueuePerWallet: int('READ_QUEUE_PER_WALLET', 8, 0, 100_000),
    metricsToken: opt('METRICS_TOKEN'),
    maxJsonValues: int('MAX_JSON_VALUES', 1_000_000, 100, 100_000_000),
    logOrigin: str('LOG_ORIGIN', `${hostOf(publicOrigin)}/proof-registry`),
    logSigningKeyFile: opt('LOG_SIGNING_KEY_FILE'),
    logCheckpointIntervalMs: int('LOG_CHECKPOINT_INTERVAL_MS', 1000, 50, 3_600_000),
    logWitnessPolicyFile: opt('LOG_WITNESS_POLICY_FILE'),
    logWitnessIntervalS: int('LOG_WITNESS_INTERVAL_S', 300, 1, 86_400),
    logWitnessTimeoutMs: int('LOG_WITNESS_TIMEOUT_MS', 10_000, 100, 120_000),
    logEnabled: bool('LOG_ENABLED', true),
    sqliteSynchronous: sqliteSynchronous === 'normal' ? 'normal' : 'full',
    sqliteProofsWarn: int('SQLITE_PROOFS_WARN', 1_000_000, 1, 1_000_000_000_000),
    eventRetentionDays: int('EVENT_RETENTION_DAYS', 30, 1, 3650),
    eventPollMs: int('EVENT_POLL_MS', 200, 10, 60_000),
    deviceSweepMs: int('DEVICE_SWEEP_MS', 5_000, 10, 3_600_000),
    webhookAllowPrivate: bool('WEBHOOK_ALLOW_PRIVATE', false),
    webhookTimeoutMs: int('WEBHOOK_TIMEOUT_MS', 15_000, 100, 60_000),
    webhookConcurrency: int('WEBHOOK_CONCURRENCY', 128, 1, 1_024),
    webhookPerEndpoint: int('WEBHOOK_PER_ENDPOINT', 32, 1, 1_024),
    webhookDisableAfterS: int('WEBHOOK_DISABLE_AFTER_S', 5 * 86_400, 60, 365 * 86_400),
    webhookSenderThread: bool('WEBHOOK_SENDER_THREAD', true),
    webhookYieldAbove: share('WEBHOOK_YIELD_ABOVE', 0.8),
  };
  if (config.metricsToken !== null && config.metricsToken.length < 16) problems.push('METRICS_TOKEN must be at least 16 characters');
  if (config.requestTimeoutS < config.headersTimeoutS) problems.push('REQUEST_TIMEOUT_S must not be shorter than HEADERS_TIMEOUT_S');
  // The origin names the note key too: a space or a plus sign would make notes nobody can read.
  if (!/^[^\s+]+$/u.test(config.logOrigin) || [...config.logOrigin].some((c) => c.charCodeAt(0) < 0x20))
    problems.push(`LOG_ORIGIN must be one word with no spaces, plus signs or control characters (got "${config.logOrigin}")`);
  if (config.deviceOfflineAfterS < config.deviceOnlineWindowS) problems.push('DEVICE_OFFLINE_AFTER_S must not be shorter than DEVICE_ONLINE_WINDOW_S');
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

/** The host (and port) of a URL, or `localhost` when it is not one (already reported). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'localhost';
  }
}
