/**
 * The adapters' rows of ARCHITECTURE.md's import tables, and the paths the rules of
 * .dependency-cruiser.cjs name. Each adapter directory imports no other adapter but the ones its
 * row names (adapterRow); the rules here keep their place in the rule set, after the rings.
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

/** The rules of "The adapters" (ARCHITECTURE.md), in the order the rule set lists them. */
const ADAPTER_RULES = [
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
];

module.exports = { OUR_CODE, PROTOCOL, LOG_VERIFIER, adapter, ADAPTER_RULES };
