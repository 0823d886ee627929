import type { Cases } from './rule-cases.js';

export const ROOT_CASES: Readonly<Record<string, Cases>> = {
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
};
