import { ContainerModule } from 'inversify';
import { pino } from 'pino';
import { MemoryTokenBalance } from '../../src/adapters/memory/memory-token-balance.js';
import type { Clock } from '../../src/application/ports/clock.js';
import { IDENTITY } from '../../src/composition/identity.tokens.js';
import { startRegistry, type RunningRegistry } from '../../src/composition/root.js';
import { loadConfig, LOCAL_ACCESS_MINT } from '../../src/config.js';
import { parseTokenAmount } from '../../src/domain/identity/token-amount.js';
import { httpCall, type CallOptions, type Reply } from './http-call.js';
import type { TestWallet } from './identity.js';
import { clockAt, inlineVerification } from './registry.js';

export interface DashboardRegistry extends RunningRegistry {
  /** The balance source: set balances, or make it fail (failWith('unreachable')). */
  readonly balances: MemoryTokenBalance;
  fund(address: string, amount: string): Promise<void>;
  /** connect → sign → verify with a test wallet; the dashboard token. */
  signIn(wallet: TestWallet): Promise<string>;
  /** JSON call with a bearer credential and the wallet header, as every harness sends it (http-call.ts). */
  call(method: string, path: string, o?: CallOptions): Promise<Reply>;
}

/**
 * The registry as `npm start` wires it (every slice, the dashboard's page included, on an
 * SQLite file or PostgreSQL), with balances from an in-memory source the test controls,
 * checks on the test's thread, and key usage written only when read or on stop.
 */
export async function startDashboardRegistry(o: { databaseUrl?: string; env?: Record<string, string>; clock?: Clock } = {}): Promise<DashboardRegistry> {
  const config = loadConfig({
    DATABASE_URL: o.databaseUrl ?? 'sqlite::memory:',
    PORT: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'dashboard-test-secret-dashboard-test-secret',
    RATE_LIMIT_PER_MIN: '100000',
    WALLET_RATE_LIMIT_PER_MIN: '100000',
    SIGN_IN_RATE_LIMIT_PER_MIN: '100000',
    WRITER_THREAD: 'false',
    ...o.env,
  });
  const logger = pino({ level: 'silent' });
  const balances = new MemoryTokenBalance();
  const testParts = new ContainerModule(({ rebind }) => {
    rebind(IDENTITY.TokenBalance).toConstantValue(balances);
    rebind(IDENTITY.Settings).toConstantValue({ usageFlushIntervalMs: 60_000 });
  });
  const registry = await startRegistry(config, { logger, overrides: [testParts, inlineVerification, ...(o.clock ? [clockAt(o.clock)] : [])] });
  const call: DashboardRegistry['call'] = (method, path, o = {}) => httpCall(registry.url, method, path, o);
  return {
    ...registry,
    balances,
    fund: (address, amount) => balances.set(address, config.accessTokenMint || LOCAL_ACCESS_MINT, parseTokenAmount(amount)!, Date.now()),
    call,
    signIn: async (wallet) => {
      const connect = await call('POST', '/v1/auth/wallet/connect', { body: { wallet_address: wallet.address } });
      const { challenge } = connect.body as { challenge: string };
      const verify = await call('POST', '/v1/auth/wallet/verify', { body: { wallet_address: wallet.address, challenge, signature: wallet.sign(challenge) } });
      if (verify.status !== 200) throw new Error(`verify: ${verify.status} ${JSON.stringify(verify.body)}`);
      return verify.body.access_token as string;
    },
  };
}
