import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import test, { type ExecutionContext } from 'ava';
import { pino } from 'pino';
import { Registry } from 'prom-client';
import { createIdentity } from '../../src/adapters/identity-module.js';
import { KnexKeyStore } from '../../src/adapters/sql/knex-key-store.js';
import { loadConfig } from '../../src/config.js';
import { withPostgresSchema, withSqliteFile } from '../support/databases.js';
import { FakeSolanaRpc } from '../support/fake-solana-rpc.js';
import { aWallet, ManualClock, MINT } from '../support/identity.js';
import { startIdentityApp } from '../support/identity-app.js';

const capture = () => {
  const lines: Array<{ level: number; msg: string }> = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line) as { level: number; msg: string }) });
  return { logger, lines, warnings: () => lines.filter((l) => l.level === 40).map((l) => l.msg) };
};

async function dataDir(t: ExecutionContext): Promise<string> {
  const dir = await mkdtemp(path.join(tmpdir(), 'proof-registry-identity-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  return dir;
}

test('embedded default: the local ledger is the source, the seven routes are built, the JWT secret is generated into the data directory', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const config = loadConfig({ DATABASE_URL: 'sqlite::memory:', DATA_DIR: dir });
    const { logger, warnings } = capture();
    const identity = await createIdentity(config, db, new ManualClock(), logger, new Registry());
    t.teardown(() => identity.close());
    t.regex(identity.describeBalanceSource, /^local ledger in the database \(mint LocaLedger\w+, minimum 50000, cache 60 s, grace 600 s\); set balances with: proof-registry ledger set/);
    t.deepEqual(warnings(), []);
    const secretFile = path.join(dir, 'jwt-secret');
    t.is((await stat(secretFile)).mode & 0o777, 0o600);
    t.deepEqual(identity.routes.map((r) => `${r.method} ${r.path}`).sort(), [
      'delete /v1/keys/{key_id}',
      'get /v1/keys',
      'get /v1/keys/{key_id}/usage',
      'post /v1/access/check',
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
    const identity = await createIdentity(loadConfig({ DATA_DIR: dir }), db, new ManualClock(), logger, new Registry());
    await identity.close();
    t.true(warnings().some((w) => /JWT_SECRET is not set but the database is PostgreSQL/.test(w) && /same JWT_SECRET on every instance/.test(w)));
    const withSecret = capture();
    const again = await createIdentity(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'y'.repeat(40) }), db, new ManualClock(), withSecret.logger, new Registry());
    await again.close();
    t.deepEqual(withSecret.warnings(), []);
  });
});

test('SOLANA_RPC_URL: balances come from the RPC, end to end, and the log shows only its origin', async (t) => {
  const rpc = await FakeSolanaRpc.start();
  t.teardown(() => rpc.close());
  const app = await startIdentityApp({ SOLANA_RPC_URL: `${rpc.url}/v1/secret-api-key?token=hunter2`, SOLANA_RPC_TIMEOUT_MS: '500' }, { balances: 'config' });
  t.teardown(() => app.close());
  t.regex(app.identity.describeBalanceSource, /^Solana RPC at http:\/\/127\.0\.0\.1:\d+ \(mint So1/);
  t.false(app.identity.describeBalanceSource.includes('hunter2'));

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

test('SOLANA_RPC_URL with the placeholder mint: a warning at start-up', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const { logger, warnings } = capture();
    const identity = await createIdentity(loadConfig({ SOLANA_RPC_URL: 'http://127.0.0.1:1', DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40) }), db, new ManualClock(), logger, new Registry());
    await identity.close();
    t.true(warnings().some((w) => /ACCESS_TOKEN_MINT is the local placeholder/.test(w)));
  });
});

test('REDIS_URL: rate limits shared through Redis; close() releases the connection', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const config = loadConfig({ REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379', DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40), RATE_LIMIT_PER_MIN: '2' });
    const prefix = `proof-registry-test:${process.pid}:${Date.now()}`;
    const registry = new Registry();
    const a = await createIdentity(config, db, new ManualClock(), capture().logger, registry, { rateLimitKeyPrefix: prefix });
    const b = await createIdentity(config, db, new ManualClock(), capture().logger, new Registry(), { rateLimitKeyPrefix: prefix });
    const decisions = [await a.rateLimiter.consume('key:k', 'api'), await b.rateLimiter.consume('key:k', 'api'), await a.rateLimiter.consume('key:k', 'api')];
    t.deepEqual(decisions.map((d) => d.allowed), [true, true, false]);
    t.regex(await registry.metrics(), /^rate_limit_redis_up 1$/m);
    await a.close();
    await b.close();
  });
});

test('REDIS_URL that does not answer: a warning, and rate_limit_redis_up is 0', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const log = capture();
    const registry = new Registry();
    const identity = await createIdentity(loadConfig({ REDIS_URL: 'redis://127.0.0.1:1', DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40) }), db, new ManualClock(), log.logger, registry);
    t.teardown(() => identity.close());
    t.regex(await registry.metrics(), /^rate_limit_redis_up 0$/m);
    t.true(log.warnings().some((msg) => /Redis does not answer: rate limits are per instance/.test(msg)), JSON.stringify(log.lines));
  });
});

test('close() writes the usage still pending', async (t) => {
  const dir = await dataDir(t);
  await withSqliteFile(async (db) => {
    const identity = await createIdentity(loadConfig({ DATA_DIR: dir, JWT_SECRET: 'z'.repeat(40) }), db, new ManualClock(), capture().logger, new Registry(), { usageFlushIntervalMs: 3_600_000 });
    const keys = new KnexKeyStore(db);
    await keys.create({ keyId: 'key_1', wallet: aWallet(1).address, name: 'n', prefix: 'p', keyHash: 'a'.repeat(64), createdAtMs: 0, lastUsedAtMs: null, requestCount: 0, errorCount: 0 });
    identity.onAuthenticatedResponse({ wallet: aWallet(1).address, kind: 'api_key', keyId: 'key_1' }, 200);
    identity.onAuthenticatedResponse({ wallet: aWallet(1).address, kind: 'api_key', keyId: 'key_1' }, 503);
    identity.onAuthenticatedResponse({ wallet: aWallet(1).address, kind: 'jwt', keyId: null }, 200);
    t.like(await keys.findByHash('a'.repeat(64)), { requestCount: 0 });
    await identity.close();
    t.like(await keys.findByHash('a'.repeat(64)), { requestCount: 2, errorCount: 1 });
  });
});
