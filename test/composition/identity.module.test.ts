import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { ContainerModule } from 'inversify';
import { pino, type Logger } from 'pino';
import type { Database } from '../../src/adapters/sql/database.js';
import { KnexKeyStore } from '../../src/adapters/sql/knex-key-store.js';
import { KnexLedgerBalance } from '../../src/adapters/sql/knex-ledger-balance.js';
import { buildContainer } from '../../src/composition/container.js';
import { CORE } from '../../src/composition/core.tokens.js';
import { IDENTITY, type IdentitySettings } from '../../src/composition/identity.tokens.js';
import { Lifecycle } from '../../src/composition/lifecycle.js';
import { resolve } from '../../src/composition/token.js';
import { loadConfig, type Config } from '../../src/config.js';
import { withPostgresSchema, withSqliteFile } from '../support/databases.js';
import { FakeSolanaRpc } from '../support/fake-solana-rpc.js';
import { amount, aWallet, ManualClock, MINT } from '../support/identity.js';
import { startIdentityApp } from '../support/identity-app.js';
import { redisTest, TEST_REDIS_URL } from '../support/redis.js';
import { FULL_GRANT } from '../../src/domain/identity/key-grant.js';

/**
 * The identity slice as the root composes it, on an opened, migrated database: its access
 * rules, routes and metrics resolved, and `stop` stopping what it started.
 */
async function identitySlice(config: Config, database: Database, logger: Logger, settings?: IdentitySettings) {
  const lifecycle = new Lifecycle(logger);
  const overrides = new ContainerModule(({ rebind }) => {
    rebind(CORE.Clock).toConstantValue(new ManualClock());
    if (settings) rebind(IDENTITY.Settings).toConstantValue(settings);
  });
  const container = buildContainer({ config, logger, database, lifecycle }, [overrides]);
  return {
    access: await resolve(container, IDENTITY.Access),
    routes: await resolve(container, IDENTITY.Routes),
    metrics: await resolve(container, CORE.Metrics),
    stop: () => lifecycle.stop(),
  };
}

const capture = () => {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) });
  return {
    logger,
    lines,
    warnings: () => lines.filter((l) => l.level === 40).map((l) => l.msg),
    infos: () => lines.filter((l) => l.level === 30).map((l) => l.msg),
  };
};

async function dataDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-identity-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('embedded default: the local ledger is the source, the nine routes are built, the JWT secret is generated into the data directory', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', DATA_DIR: dir });
    const { logger, warnings, infos } = capture();
    const identity = await identitySlice(config, db, logger);
    t.teardown(() => identity.stop());
    t.true(
      infos().some((line) =>
        /^token balances: local ledger in the database \(mint LocaLedger\w+, minimum 50000, cache 60 s, grace 600 s\); set balances with: proof-registry ledger set/.test(
          line,
        ),
      ),
      JSON.stringify(infos()),
    );
    t.deepEqual(warnings(), []);
    const secretFile = path.join(dir, 'jwt-secret');
    t.is((await stat(secretFile)).mode & 0o777, 0o600);
    t.deepEqual(identity.routes.map((r) => `${r.method} ${r.path}`).sort(), [
      'delete /v1/keys/{key_id}',
      'get /v1/keys',
      'get /v1/keys/{key_id}/usage',
      'patch /v1/keys/{key_id}',
      'post /v1/access/check',
      'post /v1/auth/logout',
      'post /v1/auth/wallet/connect',
      'post /v1/auth/wallet/verify',
      'post /v1/keys',
    ]);
  });
});

test('PostgreSQL without JWT_SECRET: a warning that instances must share one', async (t) => {
  const dir = await dataDir(t);
  await withPostgresSchema('identity-module', async (db) => {
    const { logger, warnings } = capture();
    const identity = await identitySlice(loadConfig({ DATA_DIR: dir }), db, logger);
    await identity.stop();
    t.true(warnings().some((w) => /JWT_SECRET is not set but the database is PostgreSQL/.test(w) && /same JWT_SECRET on every instance/.test(w)));
    const withSecret = capture();
    const again = await identitySlice(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'y'.repeat(40) }), db, withSecret.logger);
    await again.stop();
    t.deepEqual(withSecret.warnings(), []);
  });
});

test('SOLANA_RPC_URL: balances come from the RPC, end to end, and the log shows only its origin', async (t) => {
  const rpc = await FakeSolanaRpc.start();
  t.teardown(() => rpc.close());
  const log = capture();
  const app = await startIdentityApp(
    { SOLANA_RPC_URL: `${rpc.url}/v1/secret-api-key?token=hunter2`, SOLANA_RPC_TIMEOUT_MS: '500' },
    { balances: 'config', logger: log.logger },
  );
  t.teardown(() => app.close());
  const source = log.infos().find((line) => line.startsWith('token balances: '));
  t.regex(source ?? '', /^token balances: Solana RPC at http:\/\/127\.0\.0\.1:\d+ \(mint So1/);
  t.false(
    log.lines.some((line) => JSON.stringify(line).includes('hunter2')),
    "the RPC URL's secret is never logged",
  );

  const rich = aWallet(8);
  const poor = aWallet(9);
  rpc.add({ owner: rich.address, mint: MINT, amount: 50_000_000_000n, decimals: 6 });
  rpc.add({ owner: poor.address, mint: MINT, amount: 49_999_999_999n, decimals: 6 });
  const { key } = await app.apiKey(rich);
  t.is((await app.call('GET', '/v1/proofs', { credential: key, wallet: rich.address })).status, 200);
  await t.throwsAsync(app.signIn(poor), { message: /verify: 403/ });

  // The RPC goes down: the admitted wallet keeps working through the grace period; nobody new gets in.
  rpc.mode = 'http_500';
  app.clock.advance(61_000);
  t.is((await app.call('GET', '/v1/proofs', { credential: key, wallet: rich.address })).status, 200);
  const newcomer = aWallet(10);
  rpc.add({ owner: newcomer.address, mint: MINT, amount: 10n ** 12n, decimals: 6 });
  await t.throwsAsync(app.signIn(newcomer), { message: /verify: 503/ });
  const metrics = await app.metrics.registry.metrics();
  t.regex(metrics, /solana_rpc_errors_total\{method="getTokenAccountsByOwner",kind="http_error"\} [1-9]/);
  t.regex(metrics, /token_gate_decisions_total\{decision="grace"\} [1-9]/);
});

test('a wallet refused for its balance gets in as soon as it is funded on the local ledger; against a Solana RPC the refusal is reused for BALANCE_CACHE_TTL_S', async (t) => {
  const ledgerApp = await startIdentityApp({}, { balances: 'config' });
  t.teardown(() => ledgerApp.close());
  const ledger = new KnexLedgerBalance(ledgerApp.database);
  const newcomer = aWallet(11);
  await t.throwsAsync(ledgerApp.signIn(newcomer), { message: /^verify: 403 .*insufficient token balance/ });
  await ledger.set(newcomer.address, MINT, amount('50000'), ledgerApp.clock.nowMs());
  t.regex(await ledgerApp.signIn(newcomer), /^eyJ/);

  const rpc = await FakeSolanaRpc.start();
  t.teardown(() => rpc.close());
  const rpcApp = await startIdentityApp({ SOLANA_RPC_URL: rpc.url }, { balances: 'config' });
  t.teardown(() => rpcApp.close());
  await t.throwsAsync(rpcApp.signIn(newcomer), { message: /^verify: 403 .*insufficient token balance/ });
  rpc.add({ owner: newcomer.address, mint: MINT, amount: 50_000_000_000n, decimals: 6 });
  rpcApp.clock.advance(59_000);
  await t.throwsAsync(rpcApp.signIn(newcomer), { message: /^verify: 403 .*insufficient token balance/ });
  rpcApp.clock.advance(1_000);
  t.regex(await rpcApp.signIn(newcomer), /^eyJ/);
});

test('SOLANA_RPC_URL with the placeholder mint: a warning at start-up', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const { logger, warnings } = capture();
    const identity = await identitySlice(loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:1', DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40) }), db, logger);
    await identity.stop();
    t.true(warnings().some((w) => /ACCESS_TOKEN_MINT is the local placeholder/.test(w)));
  });
});

redisTest('REDIS_URL: rate limits shared through Redis; stopping releases the connection', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const config = loadConfig({ REDIS_URL: TEST_REDIS_URL, DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40), RATE_LIMIT_PER_MIN: '2' });
    const prefix = `proof-registry-test:${process.pid}:${Date.now()}`;
    const settings = { usageFlushIntervalMs: 1000, rateLimitKeyPrefix: prefix };
    const a = await identitySlice(config, db, capture().logger, settings);
    const b = await identitySlice(config, db, capture().logger, settings);
    const consume = (slice: typeof a) => slice.access.rateLimiter!.consume('key:k', 'api');
    const decisions = [await consume(a), await consume(b), await consume(a)];
    t.deepEqual(
      decisions.map((d) => d.allowed),
      [true, true, false],
    );
    t.regex(await a.metrics.registry.metrics(), /^rate_limit_redis_up 1$/m);
    await a.stop();
    await b.stop();
  });
});

test('REDIS_URL that does not answer: a warning, and rate_limit_redis_up is 0', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const log = capture();
    const identity = await identitySlice(loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40) }), db, log.logger);
    t.teardown(() => identity.stop());
    t.regex(await identity.metrics.registry.metrics(), /^rate_limit_redis_up 0$/m);
    t.true(
      log.warnings().some((msg) => /Redis does not answer: rate limits are per instance/.test(msg)),
      JSON.stringify(log.lines),
    );
  });
});

test('stopping writes the usage still pending, its totals and its days', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const identity = await identitySlice(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40) }), db, capture().logger, { usageFlushIntervalMs: 3_600_000 });
    const keys = new KnexKeyStore(db);
    await keys.create({
      keyId: 'key_1',
      wallet: aWallet(1).address,
      name: 'n',
      prefix: 'p',
      keyHash: 'a'.repeat(64),
      createdAtMs: 0,
      lastUsedAtMs: null,
      requestCount: 0,
      errorCount: 0,
      scopes: null,
      robotIds: null,
      expiresAtMs: null,
      disabledAtMs: null,
    });
    identity.access.onAuthenticatedResponse!({ wallet: aWallet(1).address, kind: 'api_key', keyId: 'key_1', grant: FULL_GRANT }, 200, 'POST /v1/proofs');
    identity.access.onAuthenticatedResponse!({ wallet: aWallet(1).address, kind: 'api_key', keyId: 'key_1', grant: FULL_GRANT }, 503, 'POST /v1/proofs');
    identity.access.onAuthenticatedResponse!({ wallet: aWallet(1).address, kind: 'jwt', keyId: null, grant: FULL_GRANT }, 200, 'GET /v1/fleet');
    t.like(await keys.findByHash('a'.repeat(64)), { requestCount: 0 });
    t.is((await db.knex('api_key_usage_daily').select()).length, 0);
    await identity.stop();
    t.like(await keys.findByHash('a'.repeat(64)), { requestCount: 2, errorCount: 1 });
    // The same counts by day, for the key's chart (the test clock stands at 2026-11-20T10:00Z).
    t.like(await db.knex('api_key_usage_daily').select(), [{ key_id: 'key_1', day_ms: Date.parse('2026-11-20T00:00:00Z'), request_count: 2, error_count: 1 }]);
  });
});
