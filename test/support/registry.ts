import { ContainerModule } from 'inversify';
import { pino } from 'pino';
import type { Clock } from '../../src/application/ports/clock.js';
import type { ProofProtocol } from '../../src/application/proofs/proof-protocol.js';
import { InlineBatchVerifier } from '../../src/adapters/crypto/inline-batch-verifier.js';
import { CORE } from '../../src/composition/core.tokens.js';
import { IDENTITY } from '../../src/composition/identity.tokens.js';
import { PROOFS } from '../../src/composition/proofs.tokens.js';
import { startRegistry, type RunningRegistry } from '../../src/composition/root.js';
import { loadConfig } from '../../src/config.js';
import { protocol } from './protocol.js';
import { httpCall, type Reply } from './http-call.js';
import { TestAuthenticator } from './test-authenticator.js';

/** Requests identify their wallet with the test credential (TestAuthenticator); no sign-in routes, no rate limits. */
export const testAccess = new ContainerModule(({ rebind }) => {
  rebind(IDENTITY.Access).toConstantValue({ authenticator: new TestAuthenticator() });
  rebind(IDENTITY.Routes).toConstantValue([]);
});

/** Proofs are checked on this thread, not on verify workers. */
export const inlineVerification = new ContainerModule(({ rebind }) => {
  rebind(PROOFS.BatchVerifier).toConstantValue(new InlineBatchVerifier(protocol));
  rebind(PROOFS.Checker).toResolvedValue((measured: ProofProtocol) => measured.checker, [PROOFS.MeasuredProtocol]);
});

/** The registry's clock, fixed or moved by the test. */
export const clockAt = (clock: Clock) => new ContainerModule(({ rebind }) => void rebind(CORE.Clock).toConstantValue(clock));

export interface TestRegistry extends RunningRegistry {
  /** fetch against the registry as `wallet` (test credential), JSON in and out. */
  call(wallet: string | null, method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
}

export type { Reply } from './http-call.js';

/**
 * The real registry (Koa on an ephemeral port, Knex on SQLite by default) with a test
 * authenticator. Verification runs inline unless `workers` asks for the production verify
 * pool (VERIFY_WORKERS in `env` sizes it).
 */
export async function startTestRegistry(options: { env?: Record<string, string>; clock?: Clock; workers?: boolean } = {}): Promise<TestRegistry> {
  const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', PORT: '0', LOG_LEVEL: 'silent', ...options.env });
  const registry = await startRegistry(config, {
    logger: pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' }),
    overrides: [testAccess, ...(options.workers ? [] : [inlineVerification]), ...(options.clock ? [clockAt(options.clock)] : [])],
  });
  return {
    ...registry,
    // The test credential's shorthand over the one request every harness sends (http-call.ts).
    call: (wallet, method, path, body, headers = {}) =>
      httpCall(registry.url, method, path, {
        ...(wallet ? { credential: `test:${wallet}`, wallet } : {}),
        ...(body !== undefined ? { body, raw: typeof body === 'string' } : {}),
        headers,
      }),
  };
}

export const fixedClock = (iso: string): Clock => ({ nowMs: () => Date.parse(iso) });
