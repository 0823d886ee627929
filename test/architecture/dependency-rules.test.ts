import test from 'ava';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type IConfiguration, type IViolation } from 'dependency-cruiser';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';

/**
 * Every rule of .dependency-cruiser.cjs (ARCHITECTURE.md's import tables) refuses a file that
 * breaks it and lets through one that does not. Each case is a little repository laid out like
 * this one, written to a temporary directory and cruised as `npm run lint` cruises src, with the
 * repository's own rule set.
 */

const loadConfig = createRequire(import.meta.url);
const config = loadConfig('../../.dependency-cruiser.cjs') as IConfiguration;
const ruleNames = (config.forbidden ?? []).map((rule) => rule.name ?? '(a rule without a name)');

/**
 * A little repository: each file's path from the repository's root, and its text. Every file
 * it imports that it does not list is written empty, and every package it imports is a stub in
 * its node_modules (no network, no install).
 */
type Files = Readonly<Record<string, string>>;

interface Cases {
  /** Repositories where this rule, and no other, refuses an import. */
  readonly breaking: readonly Files[];
  /** Repositories no rule refuses, with imports this rule is about. */
  readonly allowed: readonly Files[];
}

const CASES: Readonly<Record<string, Cases>> = {
  // ── The rings ───────────────────────────────────────────────────────────────────────────
  'domain-is-pure': {
    breaking: [
      { 'src/domain/proof/proof-record.ts': "import type { Clock } from '../../application/ports/clock.js';" },
      { 'src/domain/log/sha256.ts': "import { createHash } from 'node:crypto';" },
      { 'src/domain/fleet/names.ts': "import knex from 'knex';" },
    ],
    allowed: [{ 'src/domain/scoring/score-proof.ts': "import * as E from 'fp-ts/lib/Either.js';\nimport { parseRfc3339 } from '../protocol/datetime.js';" }],
  },
  'application-depends-on-domain-only': {
    breaking: [
      { 'src/application/proofs/submit-proof.ts': "import { KnexProofStore } from '../../adapters/sql/knex-proof-store.js';" },
      { 'src/application/identity/sign-out.ts': "import type { SystemClock } from '../../adapters/system-clock.js';" },
    ],
    allowed: [
      {
        'src/application/proofs/submit-proof.ts':
          "import type { ProofStore } from '../ports/proof-store.js';\nimport { verifyEnvelope } from '../../domain/protocol/verify-envelope.js';\nimport * as t from 'io-ts';",
      },
    ],
  },
  'inversify-only-in-composition': {
    breaking: [
      { 'src/adapters/sql/knex-proof-store.ts': "import { injectable } from 'inversify';" },
      { 'src/application/proofs/submit-proof.ts': "import { Container } from '@inversifyjs/core';" },
    ],
    allowed: [{ 'src/composition/proofs.module.ts': "import { ContainerModule } from 'inversify';" }],
  },
  'composition-is-the-outer-ring': {
    breaking: [{ 'src/adapters/http/app.ts': "import { CORE } from '../../composition/core.tokens.js';" }],
    allowed: [
      { 'src/main.ts': "import { startRegistry } from './composition/root.js';", 'src/composition/root.ts': "import { SLICES } from './container.js';" },
    ],
  },
  'nothing-imports-main': {
    breaking: [{ 'src/adapters/cli/main.ts': "import { main } from '../../main.js';" }, { 'src/composition/root.ts': "import '../main.js';" }],
    allowed: [{ 'src/main.ts': "import { startRegistry } from './composition/root.js';\nimport { loadConfig } from './config.js';\nimport pino from 'pino';" }],
  },

  // ── The adapters ────────────────────────────────────────────────────────────────────────
  'adapters-compose-nothing-of-other-features': {
    breaking: [
      { 'src/adapters/sql/knex-proof-store.ts': "import { SubmitProof } from '../../application/proofs/submit-proof.js';" },
      { 'src/adapters/http/routes/fleet-routes.ts': "import { GetDevice } from '../../../application/fleet/get-device.js';" },
    ],
    allowed: [
      {
        'src/adapters/http/routes/proof-routes.ts': "import type { SubmitProof } from '../../../application/proofs/submit-proof.js';",
        'src/adapters/crypto/proof-protocol-factory.ts': "import { ProofProtocol } from '../../application/proofs/proof-protocol.js';",
        'src/adapters/workers/verify-worker.ts': "import { receivedText } from '../../application/proofs/received-envelope.js';",
        'src/adapters/crypto/inline-batch-verifier.ts': "import { toReport } from '../../application/proofs/verify-proof.js';",
        'src/adapters/cli/log.ts': "import { LogVerifier } from '../../application/log/log-verifier.js';",
        'src/adapters/http/codecs/proof.codecs.ts': "import { EnvelopeCodec } from '../../../application/codecs/envelope.codec.js';",
      },
    ],
  },
  'cli-adapter-imports-crypto-sql-webhooks-only': {
    breaking: [
      { 'src/adapters/cli/login.ts': "import { JsonwebtokenTokenIssuer } from '../jwt/jsonwebtoken-token-issuer.js';" },
      { 'src/adapters/cli/verify.ts': "import { VerifyPool } from '../workers/verify-pool.js';" },
    ],
    allowed: [
      {
        'src/adapters/cli/sign.ts': "import { createProofProtocol } from '../crypto/proof-protocol-factory.js';",
        'src/adapters/cli/ledger.ts':
          "import { LOCAL_ACCESS_MINT } from '../../config.js';\nconst { KnexLedgerBalance } = await import('../sql/knex-ledger-balance.js');",
        'src/adapters/cli/webhook.ts': "import { verifySignature } from '../webhooks/standard-webhook-signer.js';",
        'src/adapters/cli/migrate.ts': "const { migrateLatest, knownMigrations } = await import('../sql/index.js');",
      },
    ],
  },
  'crypto-adapter-imports-no-other-adapter': {
    breaking: [{ 'src/adapters/crypto/key-file.ts': "import { randomId } from '../random-ids.js';" }],
    allowed: [
      {
        'src/adapters/crypto/proof-protocol-factory.ts':
          "import { NodeEd25519 } from './node-ed25519.js';\nimport type { Blake3 } from '../../domain/protocol/crypto.js';",
      },
    ],
  },
  'http-adapter-imports-no-other-adapter': {
    breaking: [
      { 'src/adapters/http/routes/proof-routes.ts': "import { KnexProofStore } from '../../sql/knex-proof-store.js';" },
      { 'src/adapters/http/errors-to-json.ts': "import type { Database } from '../sql/database.js';" },
    ],
    allowed: [
      {
        'src/adapters/http/routes/proof-routes.ts':
          "import { route } from '../route.js';\nimport type { SubmitProof } from '../../../application/proofs/submit-proof.js';",
      },
    ],
  },
  'acto-is-a-personality': {
    breaking: [{ 'src/adapters/http/acto/acto-proof-routes.ts': "import { KnexProofStore } from '../../sql/knex-proof-store.js';" }],
    allowed: [
      { 'src/adapters/http/acto/acto-proof-routes.ts': "import { route } from '../route.js';\nimport { submitProof } from '../routes/proof-calls.js';" },
    ],
  },
  'v1-does-not-lean-on-acto': {
    breaking: [{ 'src/adapters/http/routes/proof-routes.ts': "import { actoProofRoutes } from '../acto/acto-proof-routes.js';" }],
    allowed: [{ 'src/composition/acto.module.ts': "import { actoProofRoutes } from '../adapters/http/acto/acto-proof-routes.js';" }],
  },
  'jwt-adapter-imports-no-other-adapter': {
    breaking: [{ 'src/adapters/jwt/jwt-secret-file.ts': "import { NodeSha256 } from '../crypto/node-sha256.js';" }],
    allowed: [
      {
        'src/adapters/jwt/jsonwebtoken-token-issuer.ts':
          "import { readSecret } from './jwt-secret-file.js';\nimport type { TokenIssuer } from '../../application/ports/token-issuer.js';",
      },
    ],
  },
  'memory-adapter-imports-random-ids-only': {
    breaking: [
      { 'src/adapters/memory/memory-device-store.ts': "import { KnexDeviceStore } from '../sql/knex-device-store.js';" },
      { 'src/adapters/memory/memory-job-lease.ts': "import { SystemClock } from '../system-clock.js';" },
    ],
    allowed: [
      { 'src/adapters/memory/memory-group-store.ts': "import { randomId } from '../random-ids.js';\nimport { MemoryFleet } from './memory-fleet.js';" },
    ],
  },
  'metrics-adapter-imports-solana-only': {
    breaking: [{ 'src/adapters/metrics/measured-proof-protocol.ts': "import { httpMetrics } from '../http/http-metrics.js';" }],
    allowed: [{ 'src/adapters/metrics/prom-identity-metrics.ts': "import type { SolanaRpcObserver } from '../solana/solana-token-balance.js';" }],
  },
  'metrics-adapter-sees-solana-by-type-only': {
    breaking: [{ 'src/adapters/metrics/prom-identity-metrics.ts': "import { SolanaTokenBalance } from '../solana/solana-token-balance.js';" }],
    allowed: [
      { 'src/adapters/metrics/prom-identity-metrics.ts': "import type { SolanaRpcObserver } from '../solana/solana-token-balance.js';" },
      { 'src/adapters/metrics/prom-identity-metrics.ts': "import { type SolanaRpcObserver } from '../solana/solana-token-balance.js';" },
    ],
  },
  'rate-limit-adapter-imports-no-other-adapter': {
    breaking: [{ 'src/adapters/rate-limit/redis-owner-lookups.ts': "import type { Database } from '../sql/database.js';" }],
    allowed: [
      {
        'src/adapters/rate-limit/redis-rate-limiter.ts':
          "import { redisClient } from './redis-client.js';\nimport { RateLimiterRedis } from 'rate-limiter-flexible';",
      },
    ],
  },
  'solana-adapter-imports-no-other-adapter': {
    breaking: [{ 'src/adapters/solana/solana-token-balance.ts': "import { PromIdentityMetrics } from '../metrics/prom-identity-metrics.js';" }],
    allowed: [
      {
        'src/adapters/solana/solana-token-balance.ts':
          "import type { TokenBalance } from '../../application/ports/token-balance.js';\nimport { Connection } from '@solana/web3.js';",
      },
    ],
  },
  'sql-adapter-imports-random-ids-workers-only': {
    breaking: [
      { 'src/adapters/sql/knex-key-store.ts': "import { NodeSha256 } from '../crypto/node-sha256.js';" },
      { 'src/adapters/sql/knex-proof-store.ts': "import { MemoryProofStore } from '../memory/memory-proof-store.js';" },
    ],
    allowed: [
      {
        'src/adapters/sql/knex-group-store.ts': "import { randomId } from '../random-ids.js';",
        'src/adapters/sql/threaded-proof-writer.ts': "import { spawnWorker } from '../workers/spawn-worker.js';",
        'src/adapters/sql/migrate.ts': "import { migrations } from '../../../migrations/index.js';",
      },
    ],
  },
  'webhooks-adapter-imports-workers-only': {
    breaking: [{ 'src/adapters/webhooks/node-webhook-transport.ts': "import { Database } from '../sql/database.js';" }],
    allowed: [
      { 'src/adapters/webhooks/node-webhook-transport.ts': "import { AddressGuard } from './address-guard.js';" },
      { 'src/adapters/webhooks/threaded-webhook-transport.ts': "import { spawnWorker } from '../workers/spawn-worker.js';" },
    ],
  },
  'workers-adapter-imports-crypto-only': {
    breaking: [{ 'src/adapters/workers/worker-pool.ts': "import type { Database } from '../sql/database.js';" }],
    allowed: [
      {
        'src/adapters/workers/verify-worker.ts':
          "import { createProofProtocol } from '../crypto/proof-protocol-factory.js';\nimport { checkSafely } from '../crypto/inline-batch-verifier.js';",
      },
    ],
  },
  'root-adapter-files-import-no-other-adapter': {
    breaking: [
      { 'src/adapters/system-clock.ts': "import { randomId } from './random-ids.js';" },
      { 'src/adapters/random-ids.ts': "import { Database } from './sql/database.js';" },
    ],
    allowed: [
      {
        'src/adapters/system-clock.ts': "import type { Clock } from '../application/ports/clock.js';",
        'src/adapters/random-ids.ts': "import { randomBytes } from 'node:crypto';",
      },
    ],
  },
  'unlisted-adapter-imports-no-other-adapter': {
    breaking: [
      { 'src/adapters/redis/redis-key-store.ts': "import { KnexKeyStore } from '../sql/knex-key-store.js';" },
      { 'src/adapters/s3/s3-tile-store.ts': "import { randomId } from '../random-ids.js';" },
    ],
    allowed: [
      {
        'src/adapters/redis/redis-key-store.ts':
          "import { connect } from './connect.js';\nimport type { KeyStore } from '../../application/ports/key-store.js';",
      },
    ],
  },
  'only-the-cli-imports-the-cli': {
    breaking: [{ 'src/composition/root.ts': "import { readKeyFile } from '../adapters/cli/key-file.js';" }],
    allowed: [{ 'src/adapters/cli/main.ts': "import { keysCommand } from './keys.js';" }],
  },

  // ── The files at the root of src, and the migrations ────────────────────────────────────
  'config-is-read-by-composition-main-cli': {
    breaking: [
      { 'src/adapters/sql/database.ts': "import { loadConfig } from '../../config.js';" },
      { 'src/adapters/http/app.ts': "import type { Config } from '../../config.js';" },
    ],
    allowed: [
      {
        'src/main.ts': "import { loadConfig } from './config.js';",
        'src/composition/root.ts': "import type { Config } from '../config.js';",
        'src/adapters/cli/ledger.ts': "import { LOCAL_ACCESS_MINT } from '../../config.js';",
      },
    ],
  },
  'config-imports-domain-and-sql-only': {
    breaking: [
      { 'src/config.ts': "import { HELPER_THREAD_NICE } from './adapters/workers/thread-priority.js';" },
      { 'src/config.ts': "import type { Clock } from './application/ports/clock.js';" },
    ],
    allowed: [
      {
        'src/config.ts':
          "import type { SqliteSynchronous } from './adapters/sql/database.js';\nimport { isWalletAddress } from './domain/identity/wallet-address.js';",
      },
    ],
  },
  'config-sees-sql-by-type-only': {
    breaking: [{ 'src/config.ts': "import { openDatabase } from './adapters/sql/database.js';" }],
    allowed: [{ 'src/config.ts': "import type { SqliteSynchronous } from './adapters/sql/database.js';" }],
  },
  'log-verification-imports-domain-verifier-crypto-only': {
    breaking: [
      { 'src/log-verification.ts': "import { JsonwebtokenTokenIssuer } from './adapters/jwt/jsonwebtoken-token-issuer.js';" },
      { 'src/log-verification.ts': "import { GetCheckpoint } from './application/log/get-checkpoint.js';" },
    ],
    allowed: [
      {
        'src/log-verification.ts':
          "import { NodeSha256 } from './adapters/crypto/node-sha256.js';\nimport { LogVerifier } from './application/log/log-verifier.js';\nimport type { Checkpoint } from './domain/log/checkpoint.js';\nimport type * as E from 'fp-ts/lib/Either.js';",
      },
    ],
  },
  'only-the-library-entry-imports-log-verification': {
    breaking: [{ 'src/adapters/cli/log.ts': "import { logVerifier } from '../../log-verification.js';" }],
    allowed: [{ 'src/index.ts': "export { logVerifier } from './log-verification.js';" }],
  },
  'library-entry-re-exports-the-protocol-only': {
    breaking: [
      { 'src/index.ts': "export { JsonwebtokenTokenIssuer } from './adapters/jwt/jsonwebtoken-token-issuer.js';" },
      { 'src/index.ts': "export { SubmitProof } from './application/proofs/submit-proof.js';" },
    ],
    allowed: [
      {
        'src/index.ts': [
          "export { createProofProtocol } from './adapters/crypto/proof-protocol-factory.js';",
          "export { ProofProtocol } from './application/proofs/proof-protocol.js';",
          "export { toReport } from './application/proofs/verify-proof.js';",
          "export { receivedText } from './application/proofs/received-envelope.js';",
          "export * from './domain/protocol/envelope.js';",
          "export { logVerifier } from './log-verification.js';",
        ].join('\n'),
      },
    ],
  },
  'library-entry-has-no-server': {
    breaking: [{ 'src/log-verification.ts': "import knex from 'knex';" }, { 'src/index.ts': "export { default as Router } from '@koa/router';" }],
    allowed: [
      { 'src/index.ts': "export * from './domain/protocol/envelope.js';", 'src/log-verification.ts': "import type * as E from 'fp-ts/lib/Either.js';" },
    ],
  },
  'nothing-imports-the-library-entry': {
    breaking: [
      { 'src/composition/root.ts': "import { ProofProtocol } from '../index.js';" },
      { 'src/adapters/crypto/key-file.ts': "import type { Signer } from '../../index.js';" },
    ],
    allowed: [{ 'src/index.ts': "export * from './domain/protocol/envelope.js';\nexport { logVerifier } from './log-verification.js';" }],
  },
  'migrations-belong-to-sql': {
    breaking: [
      { 'src/composition/root.ts': "import { migrations } from '../../migrations/index.js';" },
      { 'src/adapters/cli/keys.ts': "const { migrations } = await import('../../../migrations/index.js');" },
      { 'src/adapters/cli/migrate.ts': "const { migrations } = await import('../../../migrations/index.js');" },
    ],
    allowed: [
      {
        'src/adapters/sql/migrate.ts': "import { migrations } from '../../../migrations/index.js';",
        'src/adapters/sql/table-catalog.ts': "import { migrations } from '../../../migrations/index.js';",
        'migrations/index.ts': "import * as proofs001 from './001_proofs.js';",
      },
    ],
  },
  'migrations-import-the-domain-only': {
    breaking: [
      {
        'src/adapters/sql/migrate.ts': "import { migrations } from '../../../migrations/index.js';",
        'migrations/index.ts': "import { KnexProofStore } from '../src/adapters/sql/knex-proof-store.js';",
      },
      {
        'src/adapters/sql/migrate.ts': "import { migrations } from '../../../migrations/index.js';",
        'migrations/index.ts': "import * as proofs018 from './018_rescore.js';",
        'migrations/018_rescore.ts': "import { ScoreProof } from '../src/application/proofs/score-proof.js';",
      },
    ],
    allowed: [
      {
        'src/adapters/sql/migrate.ts': "import { migrations } from '../../../migrations/index.js';",
        'migrations/index.ts': "import * as fleet007 from './007_fleet_details_and_wallet_stats.js';",
        'migrations/007_fleet_details_and_wallet_stats.ts':
          "import type { Knex } from 'knex';\nimport { scoreProof } from '../src/domain/scoring/score-proof.js';",
      },
    ],
  },

  // ── Every file ──────────────────────────────────────────────────────────────────────────
  'no-circular': {
    breaking: [{ 'src/domain/fleet/names.ts': "import { b } from './status.js';", 'src/domain/fleet/status.ts': "import { a } from './names.js';" }],
    allowed: [{ 'src/domain/fleet/names.ts': "import { b } from './status.js';", 'src/domain/fleet/status.ts': 'export const b = 1;' }],
  },
};

const TSCONFIG = {
  compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, isolatedModules: true },
  include: ['src', 'migrations'],
};

let root: string | undefined;
let repositories = 0;

test.after.always(async () => {
  if (root) await rm(root, { recursive: true, force: true });
});

/** What each import (`from '…'`, `import '…'`, `import('…')`) in `text` names. */
function specifiers(text: string): string[] {
  return [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)'([^']+)'/g)].map((match) => match[1]!);
}

/** Writes `files` as a repository of its own, with what they import and a tsconfig.json; returns its directory. */
async function writeRepository(files: Files): Promise<string> {
  root ??= await mkdtemp(path.join(tmpdir(), 'dependency-rules-'));
  const dir = path.join(root, String(repositories++));
  const written = new Map<string, string>(Object.entries(files));
  written.set('tsconfig.json', JSON.stringify(TSCONFIG));
  for (const [file, text] of Object.entries(files)) {
    for (const specifier of specifiers(text)) {
      if (specifier.startsWith('node:')) continue;
      if (specifier.startsWith('.')) {
        const target = path.posix.join(path.posix.dirname(file), specifier).replace(/\.js$/, '.ts');
        if (!written.has(target)) written.set(target, 'export {};\n');
        continue;
      }
      const parts = specifier.split('/');
      const name = parts.slice(0, specifier.startsWith('@') ? 2 : 1).join('/');
      const inside = parts.slice(name.split('/').length).join('/');
      written.set(`node_modules/${name}/package.json`, JSON.stringify({ name, version: '1.0.0', main: 'index.js' }));
      written.set(`node_modules/${name}/${inside.endsWith('.js') ? inside : 'index.js'}`, 'module.exports = {};\n');
    }
  }
  for (const [file, text] of written) {
    await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
    await writeFile(path.join(dir, file), text);
  }
  return dir;
}

/** The violations `npm run lint`'s cruise (src, this repository's rules) finds in `files`. */
async function violationsIn(files: Files): Promise<IViolation[]> {
  const dir = await writeRepository(files);
  const tsConfig = path.join(dir, 'tsconfig.json');
  const { output } = await cruise(
    ['src'],
    { ...config.options, baseDir: dir, tsConfig: { fileName: tsConfig }, validate: true, ruleSet: { forbidden: config.forbidden ?? [] } },
    {},
    { tsConfig: extractTSConfig(tsConfig) },
  );
  if (typeof output === 'string') throw new Error(`dependency-cruiser answered text, not a cruise result: ${output}`);
  const cruised = new Set(output.modules.map((module) => module.source));
  const missed = Object.keys(files).filter((file) => !cruised.has(file));
  if (missed.length > 0) throw new Error(`the cruise from src did not reach ${missed.join(', ')}`);
  return output.summary.violations;
}

const described = (violations: IViolation[]) => violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);

// The cruises run one at a time: dependency-cruiser keeps caches between them.
for (const [rule, { breaking, allowed }] of Object.entries(CASES)) {
  breaking.forEach((files, i) => {
    test.serial(`${rule} refuses (${i + 1}) ${Object.keys(files).join(', ')}`, async (t) => {
      const violations = await violationsIn(files);
      t.deepEqual([...new Set(violations.map((v) => v.rule.name))], [rule], described(violations).join('\n'));
      for (const v of violations) t.true(v.from in files, `${v.from} is one of the case's files`);
    });
  });
  allowed.forEach((files, i) => {
    test.serial(`${rule} allows (${i + 1}) ${Object.keys(files).join(', ')}`, async (t) => {
      t.deepEqual(described(await violationsIn(files)), []);
    });
  });
}

test('every rule has a file that breaks it and one it allows, and every case names a rule', (t) => {
  t.is(new Set(ruleNames).size, ruleNames.length, 'rule names are unique');
  t.deepEqual(
    ruleNames.filter((name) => !CASES[name]?.breaking.length),
    [],
    'rules without a breaking case',
  );
  t.deepEqual(
    ruleNames.filter((name) => !CASES[name]?.allowed.length),
    [],
    'rules without an allowed case',
  );
  t.deepEqual(
    Object.keys(CASES).filter((name) => !ruleNames.includes(name)),
    [],
    'cases for rules the configuration does not have',
  );
});
