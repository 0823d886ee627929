import { ContainerModule } from 'inversify';
import type { Logger } from 'pino';
import { HttpMetrics } from '../../src/adapters/http/http-metrics.js';
import { InlineBatchVerifier } from '../../src/adapters/crypto/inline-batch-verifier.js';
import { MemoryDeviceStore } from '../../src/adapters/memory/memory-device-store.js';
import { MemoryFleet } from '../../src/adapters/memory/memory-fleet.js';
import { MemoryGroupStore } from '../../src/adapters/memory/memory-group-store.js';
import { MemoryProofActivity } from '../../src/adapters/memory/memory-proof-activity.js';
import { MemoryProofBreakdown } from '../../src/adapters/memory/memory-proof-breakdown.js';
import { MemoryProofStore } from '../../src/adapters/memory/memory-proof-store.js';
import { MemoryWalletStats } from '../../src/adapters/memory/memory-wallet-stats.js';
import { MemoryTokenBalance } from '../../src/adapters/memory/memory-token-balance.js';
import { MemoryProofSeries } from '../../src/adapters/memory/memory-usage-series.js';
import type { Database } from '../../src/adapters/sql/index.js';
import type { ProofChecker } from '../../src/application/ports/proof-checker.js';
import { CORE } from '../../src/composition/core.tokens.js';
import { DASHBOARD } from '../../src/composition/dashboard.tokens.js';
import { FLEET } from '../../src/composition/fleet.tokens.js';
import { IDENTITY, type IdentitySettings } from '../../src/composition/identity.tokens.js';
import { PROOFS } from '../../src/composition/proofs.tokens.js';
import { startRegistry, type RunningRegistry } from '../../src/composition/root.js';
import { loadConfig } from '../../src/config.js';
import { amount, ManualClock, MINT, silentLogger, type TestWallet } from './identity.js';
import { httpCall, type CallOptions, type Reply } from './http-call.js';
import { protocol } from './protocol.js';

export type { CallOptions, Reply } from './http-call.js';

/**
 * The registry as production builds it (the identity slice on a migrated SQLite database),
 * with proofs kept in memory and checked on this thread, served by the real Koa app on an
 * ephemeral port. Balances come from an in-memory source the test controls, and API-key
 * usage is written only when asked for (a key list, a statistic, the stop).
 */
export interface IdentityApp {
  readonly url: string;
  readonly registry: RunningRegistry;
  readonly balances: MemoryTokenBalance;
  readonly clock: ManualClock;
  readonly metrics: HttpMetrics;
  readonly database: Database;
  fund(wallet: TestWallet | string, amountText: string): Promise<void>;
  call(method: string, path: string, options?: CallOptions): Promise<Reply>;
  /** connect → sign → verify; returns the dashboard token. */
  signIn(wallet: TestWallet): Promise<string>;
  /** Signs in and creates an API key; returns the key and its id. */
  apiKey(wallet: TestWallet, name?: string): Promise<{ key: string; keyId: string; token: string }>;
  close(): Promise<void>;
}

export interface IdentityAppOptions {
  /** Where the registry logs (silent by default). */
  readonly logger?: Logger;
  /** `memory` (default): balances from the test's MemoryTokenBalance; `config`: whatever the configuration picks (ledger or Solana RPC). */
  readonly balances?: 'memory' | 'config';
  /**
   * `memory-proofs` (default): proofs in memory, the rest in the database; `memory`: proofs,
   * devices and groups in memory; `database`: everything in DATABASE_URL's database.
   */
  readonly stores?: 'memory-proofs' | 'memory' | 'database';
  /** The identity slice's knobs besides the usage flush (e.g. a Redis key prefix of the test's own). */
  readonly settings?: Partial<IdentitySettings>;
}

export async function startIdentityApp(env: Record<string, string> = {}, options: IdentityAppOptions = {}): Promise<IdentityApp> {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    PORT: '0',
    ACCESS_TOKEN_MINT: MINT,
    JWT_SECRET: 'http-test-secret-http-test-secret-0123456789',
    PUBLIC_ORIGIN: 'http://localhost:8080',
    RATE_LIMIT_PER_MIN: '100000',
    WALLET_RATE_LIMIT_PER_MIN: '100000',
    SIGN_IN_RATE_LIMIT_PER_MIN: '100000',
    ...env,
  });
  const clock = new ManualClock(Date.now());
  const balances = new MemoryTokenBalance();
  const metrics = new HttpMetrics({ defaultMetrics: false });
  const checker: ProofChecker = protocol.checker;
  const testParts = new ContainerModule(({ rebind }) => {
    rebind(CORE.Clock).toConstantValue(clock);
    rebind(CORE.Metrics).toConstantValue(metrics);
    rebind(IDENTITY.Settings).toConstantValue({ usageFlushIntervalMs: 60_000, ...options.settings });
    if (options.balances !== 'config') rebind(IDENTITY.TokenBalance).toConstantValue(balances);
    if (options.stores !== 'database') {
      const fleet = options.stores === 'memory' ? new MemoryFleet() : undefined;
      // In memory, the wallet statistics hear of each stored proof as the SQL writers count it.
      const walletStats = fleet ? new MemoryWalletStats(fleet) : undefined;
      const proofs = new MemoryProofStore(walletStats ?? fleet);
      rebind(PROOFS.Store).toConstantValue(proofs);
      // The overview's series reads the same proofs.
      rebind(DASHBOARD.ProofSeries).toConstantValue(new MemoryProofSeries(proofs));
      rebind(DASHBOARD.ProofBreakdown).toConstantValue(new MemoryProofBreakdown(proofs));
      if (fleet) {
        rebind(FLEET.DeviceStore).toConstantValue(new MemoryDeviceStore(fleet));
        rebind(FLEET.GroupStore).toConstantValue(new MemoryGroupStore(fleet));
        rebind(FLEET.ProofActivity).toConstantValue(new MemoryProofActivity(proofs));
        rebind(PROOFS.WalletStats).toConstantValue(walletStats!);
      }
    }
    rebind(PROOFS.Checker).toConstantValue(checker);
    rebind(PROOFS.BatchVerifier).toConstantValue(new InlineBatchVerifier(protocol));
  });
  const registry = await startRegistry(config, { logger: options.logger ?? silentLogger, overrides: [testParts] });
  const url = registry.url;

  const call = (method: string, path: string, o: CallOptions = {}): Promise<Reply> => httpCall(url, method, path, o);

  const signIn = async (wallet: TestWallet): Promise<string> => {
    const connect = await call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: wallet.address } });
    if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${JSON.stringify(connect.body)}`);
    const { challenge } = connect.body as { challenge: string };
    const verify = await call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: wallet.address, challenge, signature: wallet.sign(challenge) } });
    if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${JSON.stringify(verify.body)}`);
    return (verify.body as { access_token: string }).access_token;
  };

  return {
    url,
    registry,
    balances,
    clock,
    metrics,
    database: registry.database,
    fund: (wallet, text) => balances.set(typeof wallet === 'string' ? wallet : wallet.address, MINT, amount(text), clock.nowMs()),
    call,
    signIn,
    apiKey: async (wallet, name = 'test key') => {
      const token = await signIn(wallet);
      const created = await call('POST', '/v1/keys', { credential: token, wallet: wallet.address, body: { name } });
      if (created.status !== 201) throw new Error(`create key: ${created.status} ${JSON.stringify(created.body)}`);
      return { key: created.body.key as string, keyId: created.body.key_id as string, token };
    },
    close: () => registry.close(),
  };
}
