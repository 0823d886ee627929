/**
 * Architecture rules (ARCHITECTURE.md, "The hexagon"): dependencies point inward, one rule per
 * row of its two tables, each with its reason. test/architecture/dependency-rules.test.ts shows
 * every rule refusing a file that breaks it; a rule added here without a case there fails it.
 *   domain          -> itself, plus pure libraries (fp-ts)
 *   application     -> itself, domain
 *   adapters        -> application, domain, and the adapters their row names (adapterRow below)
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

/** This repository's code, as opposed to packages and Node's built-ins. */
const OUR_CODE = '^(src|migrations)/';

/**
 * The proof protocol's application files: the ProofProtocol facade, reading an envelope as
 * received, the verification report. What a device, a verify worker, the CLI and an embedder
 * run (src/index.ts exports them); not a use case of the registry.
 */
const PROTOCOL = '^src/application/proofs/(proof-protocol|received-envelope|verify-proof)\\.ts$';

/** The transparency log's verifier: what a reader of the log runs (the CLI, an embedder). */
const LOG_VERIFIER = '^src/application/log/log-verifier\\.ts$';

const adapter = (dir) => `^src/adapters/${dir}/`;
const RANDOM_IDS = '^src/adapters/random-ids\\.ts$';

/** The adapter directories with a row in ARCHITECTURE.md's adapter table. */
const LISTED_ADAPTERS = ['cli', 'crypto', 'http', 'jwt', 'memory', 'metrics', 'rate-limit', 'solana', 'sql', 'webhooks', 'workers'];

/**
 * A row of ARCHITECTURE.md's adapter table: the adapter in `dir` imports no other adapter but
 * `mayImport` (regular expressions). What it may import outside src/adapters is other rules' business.
 */
function adapterRow(name, dir, mayImport, comment) {
  return {
    name,
    comment,
    severity: 'error',
    // http/acto has a row of its own (acto-is-a-personality).
    from: dir === 'http' ? { path: adapter('http'), pathNot: adapter('http/acto') } : { path: adapter(dir) },
    to: { path: '^src/adapters/', pathNot: [adapter(dir), ...mayImport] },
  };
}

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
    {
      name: 'adapters-compose-nothing-of-other-features',
      comment:
        "An adapter of one port does not build the use cases of a feature: that is a slice module's job (src/composition), so there is one composition style. " +
        "Two exceptions are not use cases of the registry but what a reader runs: the log's verifier (the CLI, an embedder), and the proof protocol " +
        '(application/proofs/proof-protocol, received-envelope, verify-proof), which the crypto adapter builds, the verify workers and the CLI run, and src/index.ts exports.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: {
        path: '^src/application/(proofs|fleet|identity|dashboard|log)/',
        pathNot: [LOG_VERIFIER, PROTOCOL],
        dependencyTypesNot: ['type-only'],
      },
    },
    adapterRow(
      'cli-adapter-imports-crypto-sql-webhooks-only',
      'cli',
      [adapter('crypto'), adapter('sql'), adapter('webhooks')],
      "The CLI runs on a developer's or an operator's machine without the service: it signs and verifies with the crypto adapter (key files, the proof protocol, the log's hashes), " +
        "works on the service's database through the sql adapter (migrate, backup, copy, the local ledger), and checks a webhook delivery with the signer the service uses.",
    ),
    adapterRow(
      'crypto-adapter-imports-no-other-adapter',
      'crypto',
      [],
      "Hashes, signatures, key files and the proof protocol's factory stand alone: the library entry exports them to embedders.",
    ),
    adapterRow(
      'http-adapter-imports-no-other-adapter',
      'http',
      [],
      'The HTTP adapter reaches the use cases, never a store, a thread or another driven adapter: the slice modules hand it what it serves. (It holds http/acto, which it does not import either: v1-does-not-lean-on-acto.)',
    ),
    {
      name: 'acto-is-a-personality',
      comment:
        "The /acto routes map the ACTO SDK's shapes onto the other slices' use cases and hold no rule of their own: they reach no store, thread or other driven adapter, only the HTTP adapter's parts, the use cases (by type) and the domain.",
      severity: 'error',
      from: { path: '^src/adapters/http/acto/' },
      to: { path: '^src/adapters/', pathNot: '^src/adapters/http/' },
    },
    {
      name: 'v1-does-not-lean-on-acto',
      comment:
        'The native API stands without the ACTO personality: what both use lives in adapters/http (routes/, codecs/), and the acto slice can be left out whole.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/adapters/http/acto/', '^src/composition/'] },
      to: { path: '^src/adapters/http/acto/' },
    },
    adapterRow('jwt-adapter-imports-no-other-adapter', 'jwt', [], 'Issuing and checking tokens needs only its secret file and the identity ports.'),
    adapterRow(
      'memory-adapter-imports-random-ids-only',
      'memory',
      [RANDOM_IDS],
      'The in-memory stores make ids as the SQL stores do (random-ids.ts), so tests on either see the same ids; they touch no database, thread or network.',
    ),
    adapterRow(
      'metrics-adapter-imports-solana-only',
      'metrics',
      [adapter('solana')],
      'The metrics wrappers time what they wrap through the ports; the identity metrics also count the Solana RPC calls, through the observer type the Solana adapter defines.',
    ),
    {
      name: 'metrics-adapter-sees-solana-by-type-only',
      comment: "The identity metrics implement the Solana adapter's SolanaRpcObserver: a type, so metrics never loads @solana/web3.js.",
      severity: 'error',
      from: { path: adapter('metrics') },
      to: { path: adapter('solana'), dependencyTypesNot: ['type-only'] },
    },
    adapterRow(
      'rate-limit-adapter-imports-no-other-adapter',
      'rate-limit',
      [],
      'Rate limits (in memory, Redis) and the owner lookups need only their ports and the Redis client of their own.',
    ),
    adapterRow(
      'solana-adapter-imports-no-other-adapter',
      'solana',
      [],
      'The token balance read over Solana RPC needs only its port: what observes it (metrics) comes in through the constructor.',
    ),
    adapterRow(
      'sql-adapter-imports-random-ids-workers-only',
      'sql',
      [RANDOM_IDS, adapter('workers')],
      'The SQL stores make ids with random-ids.ts, as the memory stores do; the SQLite proof writer runs in a thread the workers adapter spawns (spawn-worker.ts). The migrations are its own (migrations-belong-to-sql).',
    ),
    adapterRow(
      'webhooks-adapter-imports-workers-only',
      'webhooks',
      [adapter('workers')],
      'Signing deliveries and the SSRF-safe transport need only their ports; deliveries are posted from a thread the workers adapter spawns (spawn-worker.ts) below the event loop. The CLI uses the signer, not the other way round.',
    ),
    adapterRow(
      'workers-adapter-imports-crypto-only',
      'workers',
      [adapter('crypto')],
      "A verify worker builds the proof protocol with the crypto adapter's factory and checks envelopes as the inline verifier does (inline-batch-verifier.ts), so a thread and the event loop give the same answer.",
    ),
    {
      name: 'root-adapter-files-import-no-other-adapter',
      comment: 'random-ids.ts and system-clock.ts (and any file directly in src/adapters) are shared by several adapters, so they depend on none.',
      severity: 'error',
      from: { path: '^src/adapters/[^/]+$' },
      to: { path: '^src/adapters/' },
    },
    {
      name: 'unlisted-adapter-imports-no-other-adapter',
      comment:
        "An adapter directory without a row in ARCHITECTURE.md's adapter table imports no other adapter: give it a row (and a rule here) when it needs one.",
      severity: 'error',
      from: { path: '^src/adapters/([^/]+)/', pathNot: `^src/adapters/(${LISTED_ADAPTERS.join('|')})/` },
      to: { path: '^src/adapters/', pathNot: '^src/adapters/$1/' },
    },
    {
      name: 'only-the-cli-imports-the-cli',
      comment:
        "The CLI is a driving adapter of its own: the registry and the other adapters never depend on it. What both use (the key file's format) lives in the adapter it belongs to.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/adapters/cli/' },
      to: { path: '^src/adapters/cli/' },
    },

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
