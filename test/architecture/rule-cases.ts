// The cases of dependency-rules.test.ts, by the rule they are about: the rings and every file
// here, the adapters in adapter-rule-cases.ts, the root of src and the migrations in root-rule-cases.ts.

/**
 * A little repository: each file's path from the repository's root, and its text. Every file
 * it imports that it does not list is written empty, and every package it imports is a stub in
 * its node_modules (no network, no install).
 */
export type Files = Readonly<Record<string, string>>;

export interface Cases {
  /** Repositories where this rule, and no other, refuses an import. */
  readonly breaking: readonly Files[];
  /** Repositories no rule refuses, with imports this rule is about. */
  readonly allowed: readonly Files[];
}

export const RING_CASES: Readonly<Record<string, Cases>> = {
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
};

export const EVERY_FILE_CASES: Readonly<Record<string, Cases>> = {
  // ── Every file ──────────────────────────────────────────────────────────────────────────
  'no-circular': {
    breaking: [{ 'src/domain/fleet/names.ts': "import { b } from './status.js';", 'src/domain/fleet/status.ts': "import { a } from './names.js';" }],
    allowed: [{ 'src/domain/fleet/names.ts': "import { b } from './status.js';", 'src/domain/fleet/status.ts': 'export const b = 1;' }],
  },
};
