import { pino } from 'pino';
import { InlineBatchVerifier } from '../../src/adapters/crypto/inline-batch-verifier.js';
import { createIdentity } from '../../src/adapters/identity-module.js';
import { MemoryTokenBalance } from '../../src/adapters/memory/memory-token-balance.js';
import type { Clock } from '../../src/application/ports/clock.js';
import { loadConfig, LOCAL_ACCESS_MINT } from '../../src/config.js';
import { startRegistry, type RunningRegistry } from '../../src/container.js';
import { parseTokenAmount } from '../../src/domain/identity/token-amount.js';
import { protocol } from './protocol.js';
import type { TestWallet } from './identity.js';

export interface DashboardRegistry extends RunningRegistry {
  /** The balance source: set balances, or make it fail (failWith('unreachable')). */
  readonly balances: MemoryTokenBalance;
  fund(address: string, amount: string): Promise<void>;
  /** connect → sign → verify with a test wallet; the dashboard token. */
  signIn(wallet: TestWallet): Promise<string>;
  /** JSON call with a bearer credential and the wallet header. */
  call(method: string, path: string, o?: { token?: string; wallet?: string; body?: unknown }): Promise<{ status: number; headers: Headers; body: any }>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * The registry as `npm start` wires it (identity module, dashboard, SQLite file or
 * PostgreSQL), with balances from an in-memory source the test controls and inline checks.
 */
export async function startDashboardRegistry(o: { databaseUrl?: string; env?: Record<string, string>; clock?: Clock } = {}): Promise<DashboardRegistry> {
  const config = loadConfig({
    DATABASE_URL: o.databaseUrl ?? 'sqlite::memory:',
    PORT: '0',
    LOG_LEVEL: 'silent',
    JWT_SECRET: 'dashboard-test-secret-dashboard-test-secret',
    RATE_LIMIT_PER_MIN: '100000',
    SIGN_IN_RATE_LIMIT_PER_MIN: '100000',
    WRITER_THREAD: 'false',
    ...o.env,
  });
  const logger = pino({ level: 'silent' });
  const balances = new MemoryTokenBalance();
  const registry = await startRegistry(config, {
    logger,
    identity: (database, clock, metrics) => createIdentity(config, database, clock, logger, metrics.registry, { balanceSource: balances, usageFlushIntervalMs: 60_000 }),
    batchVerifier: new InlineBatchVerifier(protocol),
    ...(o.clock ? { overrides: { clock: o.clock } } : {}),
  });
  const call: DashboardRegistry['call'] = async (method, path, c = {}) => {
    const res = await fetch(registry.url + path, {
      method,
      headers: {
        ...(c.token ? { authorization: `Bearer ${c.token}` } : {}),
        ...(c.wallet ? { 'x-wallet-address': c.wallet } : {}),
        ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(c.body !== undefined ? { body: JSON.stringify(c.body) } : {}),
      redirect: 'manual',
    });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
    return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
  };
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
