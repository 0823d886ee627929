import type { Cases } from './rule-cases.js';

export const ADAPTER_CASES: Readonly<Record<string, Cases>> = {
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
};
