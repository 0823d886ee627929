/**
 * Architecture rules (ARCHITECTURE.md, "The hexagon"): dependencies point inward, one rule per
 * row of its two tables, each with its reason. test/architecture/dependency-rules.test.ts shows
 * every rule refusing a file that breaks it; a rule added here without a case there fails it.
 *   domain          -> itself, plus pure libraries (fp-ts)
 *   application     -> itself, domain
 *   adapters        -> application, domain, and the adapters their row names (.dependency-cruiser-adapters.cjs)
 *   composition     -> everything but main.ts, index.ts and the CLI; only main.ts imports it, and only it knows Inversify
 *   main.ts         -> anything; nothing imports it
 *   config.ts       -> domain, the sql adapter's types; read by composition, main.ts and the CLI only
 *   log-verification.ts -> domain, the log's verifier, the crypto adapter; only index.ts imports it
 *   index.ts        -> re-exports for embedders (domain, the protocol, crypto, log-verification.ts); nothing in src imports it
 *   migrations/     -> domain; only the sql adapter imports them
 *   http/acto       -> a second driving adapter over the same use cases; nothing but its slice imports it
 * "May import" is about this repository's code (src/, migrations/): packages from npm are free
 * except where a rule names them.
 */

const { OUR_CODE, PROTOCOL, LOG_VERIFIER, adapter, ADAPTER_RULES } = require('./.dependency-cruiser-adapters.cjs');

module.exports = {
  forbidden: [
    // ── The rings ────────────────────────────────────────────────────────────────────────
    {
      name: 'domain-is-pure',
      comment: 'src/domain may import only itself and fp-ts (pure, no I/O).',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { pathNot: ['^src/domain', 'node_modules/fp-ts/'] },
    },
    {
      name: 'application-depends-on-domain-only',
      comment: 'Use cases see the domain and their ports, never an adapter, the wiring, the configuration, the library entry or the migrations.',
      severity: 'error',
      from: { path: '^src/application' },
      to: { path: OUR_CODE, pathNot: ['^src/application/', '^src/domain/'] },
    },
    {
      name: 'inversify-only-in-composition',
      comment: 'Only the slice modules and the root in src/composition wire the container; everything else stays plain classes, usable without it.',
      severity: 'error',
      from: { pathNot: '^src/composition/' },
      to: { path: 'node_modules/(inversify|@inversifyjs)/' },
    },
    {
      name: 'composition-is-the-outer-ring',
      comment: 'Domain, use cases and adapters never reach for the wiring: they get what they need through their constructors. Only main.ts starts the root.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/composition/', '^src/main\\.ts$'] },
      to: { path: '^src/composition/' },
    },
    {
      name: 'nothing-imports-main',
      comment: 'src/main.ts starts the service (`npm start`): it is run, never imported, so importing a module never starts a server.',
      severity: 'error',
      from: { path: OUR_CODE },
      to: { path: '^src/main\\.ts$' },
    },

    // ── The adapters ─────────────────────────────────────────────────────────────────────
    ...ADAPTER_RULES,

    // ── The files at the root of src, and the migrations ─────────────────────────────────
    {
      name: 'config-is-read-by-composition-main-cli',
      comment:
        "The configuration is read once, by main.ts, and handed out by the composition root; the CLI, which starts no root, reads what it shares with the service (the local ledger's mint). " +
        'Domain, use cases and the other adapters get their settings through their constructors.',
      severity: 'error',
      from: { path: OUR_CODE, pathNot: ['^src/composition/', '^src/main\\.ts$', '^src/adapters/cli/'] },
      to: { path: '^src/config\\.ts$' },
    },
    {
      name: 'config-imports-domain-and-sql-only',
      comment: 'The configuration checks values with the domain (wallet addresses) and names the SQLite modes the sql adapter defines; it builds nothing.',
      severity: 'error',
      from: { path: '^src/config\\.ts$' },
      to: { path: OUR_CODE, pathNot: ['^src/domain/', adapter('sql')] },
    },
    {
      name: 'config-sees-sql-by-type-only',
      comment: "The configuration names the sql adapter's SqliteSynchronous type only, so reading it loads no database driver.",
      severity: 'error',
      from: { path: '^src/config\\.ts$' },
      to: { path: adapter('sql'), dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'log-verification-imports-domain-verifier-crypto-only',
      comment:
        "Offline verification of the log, for embedders: the domain's log types, the log's verifier and the crypto adapter's SHA-256 and Ed25519. No server, no database, no network.",
      severity: 'error',
      from: { path: '^src/log-verification\\.ts$' },
      to: { path: OUR_CODE, pathNot: ['^src/domain/', LOG_VERIFIER, adapter('crypto')] },
    },
    {
      name: 'only-the-library-entry-imports-log-verification',
      comment: "src/log-verification.ts is the library's (src/index.ts re-exports it); the registry and the CLI use the log's verifier itself.",
      severity: 'error',
      from: { path: OUR_CODE, pathNot: '^src/index\\.ts$' },
      to: { path: '^src/log-verification\\.ts$' },
    },
    {
      name: 'library-entry-re-exports-the-protocol-only',
      comment:
        "src/index.ts gives embedders the proof protocol (domain, the protocol's application files, the crypto adapter) and the log's offline verification: no use case, store or server.",
      severity: 'error',
      from: { path: '^src/index\\.ts$' },
      to: { path: OUR_CODE, pathNot: ['^src/domain/', PROTOCOL, adapter('crypto'), '^src/log-verification\\.ts$'] },
    },
    {
      name: 'library-entry-has-no-server',
      comment: 'src/index.ts and the modules it exports are embedded by other services: no Koa, no database drivers.',
      severity: 'error',
      from: { path: '^src/(index|log-verification)\\.ts$' },
      to: { path: ['^src/adapters/(http|sql)', 'node_modules/(koa|@koa|knex|pg|sqlite3)/'] },
    },
    {
      name: 'nothing-imports-the-library-entry',
      comment:
        'src/index.ts is what embedders import. Code inside src imports each thing from where it lives, so the entry stays a list of re-exports and never drags adapters into what imports it.',
      severity: 'error',
      from: { path: '^src', pathNot: '^src/index\\.ts$' },
      to: { path: '^src/index\\.ts$' },
    },
    {
      name: 'migrations-belong-to-sql',
      comment:
        "The schema is the sql adapter's: it runs the migrations (migrate.ts), lists them (knownMigrations) and checks a copy against them (table-catalog.ts); everything else asks it.",
      severity: 'error',
      from: { path: OUR_CODE, pathNot: [adapter('sql'), '^migrations/'] },
      to: { path: '^migrations/' },
    },
    {
      name: 'migrations-import-the-domain-only',
      comment:
        "A migration runs in the sql adapter's transaction with Knex alone: it may compute stored values with the domain's pure functions (scores, times), never with a use case or an adapter.",
      severity: 'error',
      from: { path: '^migrations/' },
      to: { path: '^src/', pathNot: '^src/domain/' },
    },

    // ── Every file ───────────────────────────────────────────────────────────────────────
    {
      name: 'no-circular',
      comment: 'Modules import each other in one direction only: a cycle has no inside and no outside.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default', 'types'] },
  },
};
