import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { createHttpApp } from '../../src/adapters/http/app.js';
import { databaseFailures } from '../../src/adapters/sql/database-errors.js';
import { HttpMetrics } from '../../src/adapters/http/http-metrics.js';
import { openApiDocument } from '../../src/adapters/http/openapi/openapi-document.js';
import type { AnyRoute } from '../../src/adapters/http/route.js';
import { opsRoutes } from '../../src/adapters/http/routes/ops-routes.js';
import { proofRoutes } from '../../src/adapters/http/routes/proof-routes.js';
import { createIdentity, type Identity } from '../../src/adapters/identity-module.js';
import { InlineBatchVerifier } from '../../src/adapters/crypto/inline-batch-verifier.js';
import { MemoryProofStore } from '../../src/adapters/memory/memory-proof-store.js';
import { MemoryTokenBalance } from '../../src/adapters/memory/memory-token-balance.js';
import { migrateLatest, openDatabase, type Database } from '../../src/adapters/sql/index.js';
import { GetProof } from '../../src/application/proofs/get-proof.js';
import { ScoreProof } from '../../src/application/proofs/score-proof.js';
import { SearchProofs } from '../../src/application/proofs/search-proofs.js';
import { SubmitProof } from '../../src/application/proofs/submit-proof.js';
import { VerifyBatch } from '../../src/application/proofs/verify-batch.js';
import { loadConfig } from '../../src/config.js';
import { amount, ManualClock, MINT, silentLogger, type TestWallet } from './identity.js';
import { protocol } from './protocol.js';

export interface Reply {
  status: number;
  headers: Headers;
  // Tests read whatever the route returns.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

export interface CallOptions {
  readonly credential?: string;
  readonly wallet?: string;
  readonly body?: unknown;
  /** Send `body` (a string) as it is, not JSON-encoded: for malformed bodies. */
  readonly raw?: boolean;
  readonly headers?: Record<string, string>;
}

/**
 * The identity module as production builds it (createIdentity on a migrated SQLite database),
 * with the proof routes on a memory store as the protected routes, served by the real Koa app
 * on an ephemeral port. Balances come from an in-memory source the test controls.
 */
export interface IdentityApp {
  readonly url: string;
  readonly identity: Identity;
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
  /** `memory` (default): balances from the test's MemoryTokenBalance; `config`: whatever the configuration picks (ledger or Solana RPC). */
  readonly balances?: 'memory' | 'config';
}

export async function startIdentityApp(env: Record<string, string> = {}, options: IdentityAppOptions = {}): Promise<IdentityApp> {
  const config = loadConfig({
    DATABASE_URL: 'sqlite::memory:',
    ACCESS_TOKEN_MINT: MINT,
    JWT_SECRET: 'http-test-secret-http-test-secret-0123456789',
    PUBLIC_ORIGIN: 'http://localhost:8080',
    RATE_LIMIT_PER_MIN: '100000',
    SIGN_IN_RATE_LIMIT_PER_MIN: '100000',
    ...env,
  });
  const database = await openDatabase(config.databaseUrl);
  await migrateLatest(database);
  const clock = new ManualClock(Date.now());
  const balances = new MemoryTokenBalance();
  const metrics = new HttpMetrics({ defaultMetrics: false });
  const identity = await createIdentity(config, database, clock, silentLogger, metrics.registry, {
    ...(options.balances === 'config' ? {} : { balanceSource: balances }),
    usageFlushIntervalMs: 60_000,
  });
  const store = new MemoryProofStore();
  const routes = [
    ...identity.routes,
    ...proofRoutes({
      submit: new SubmitProof(protocol.checker, store, clock),
      get: new GetProof(store),
      search: new SearchProofs(store),
      verifyBatch: new VerifyBatch(new InlineBatchVerifier(protocol)),
      score: new ScoreProof(protocol, store, clock),
      protocol,
      metrics,
      batchBodyLimitBytes: config.batchBodyLimitBytes,
      maxBatch: config.maxBatch,
    }),
  ];
  const all: AnyRoute[] = [...routes, ...opsRoutes({ metrics, ready: async () => true, openapi: (): unknown => openApiDocument(all, { version: 'v1' }) })];
  const app = createHttpApp({
    routes: all,
    access: { authenticator: identity.authenticator, rateLimiter: identity.rateLimiter, onAuthenticatedResponse: identity.onAuthenticatedResponse },
    failures: databaseFailures,
    metrics,
    logger: silentLogger,
    bodyLimitBytes: config.bodyLimitBytes,
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const call = async (method: string, path: string, o: CallOptions = {}): Promise<Reply> => {
    const res = await fetch(url + path, {
      method,
      headers: {
        ...(o.credential !== undefined ? { authorization: `Bearer ${o.credential}` } : {}),
        ...(o.wallet !== undefined ? { 'x-wallet-address': o.wallet } : {}),
        ...(o.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...o.headers,
      },
      ...(o.body !== undefined ? { body: o.raw === true ? String(o.body) : JSON.stringify(o.body) } : {}),
    });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').includes('json') && text !== '';
    return { status: res.status, headers: res.headers, body: json ? JSON.parse(text) : text };
  };

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
    identity,
    balances,
    clock,
    metrics,
    database,
    fund: (wallet, text) => balances.set(typeof wallet === 'string' ? wallet : wallet.address, MINT, amount(text), clock.nowMs()),
    call,
    signIn,
    apiKey: async (wallet, name = 'test key') => {
      const token = await signIn(wallet);
      const created = await call('POST', '/v1/keys', { credential: token, wallet: wallet.address, body: { name } });
      if (created.status !== 201) throw new Error(`create key: ${created.status} ${JSON.stringify(created.body)}`);
      return { key: created.body.key as string, keyId: created.body.key_id as string, token };
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await identity.close();
      await database.close();
    },
  };
}
