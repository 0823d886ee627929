/**
 * Architecture rules (ARCHITECTURE.md): dependencies point inward.
 *   domain       -> itself, plus pure libraries (fp-ts)
 *   application  -> domain
 *   adapters     -> application, domain
 *   composition  -> everything; only main.ts imports it, and only it knows Inversify
 *   index.ts     -> re-exports for embedders; nothing in src imports it
 *   http/acto    -> a second driving adapter over the same use cases; nothing but its slice imports it
 */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'src/domain may import only itself and fp-ts (pure, no I/O).',
      severity: 'error',
      from: { path: '^src/domain' },
      to: { pathNot: ['^src/domain', 'node_modules/fp-ts/'] },
    },
    {
      name: 'application-depends-on-domain-only',
      comment: 'Use cases see the domain and their ports, never an adapter.',
      severity: 'error',
      from: { path: '^src/application' },
      to: { path: ['^src/adapters', '^src/composition', '^src/main'] },
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
      name: 'adapters-compose-nothing-of-other-features',
      comment:
        'An adapter of one port does not build the use cases of a feature: that is a slice module\'s job (src/composition), so there is one composition style. ' +
        'The log\'s verifier is the exception: it is what a reader of the log runs (the CLI, an embedder), not a use case of the registry.',
      severity: 'error',
      from: { path: '^src/adapters/' },
      to: {
        path: '^src/application/(proofs|fleet|identity|dashboard|log)/',
        pathNot: '^src/application/log/log-verifier\\.ts$',
        dependencyTypesNot: ['type-only'],
      },
    },
    {
      name: 'acto-is-a-personality',
      comment:
        'The /acto routes map the ACTO SDK\'s shapes onto the other slices\' use cases and hold no rule of their own: they reach no store, thread or other driven adapter, only the HTTP adapter\'s parts, the use cases (by type) and the domain.',
      severity: 'error',
      from: { path: '^src/adapters/http/acto/' },
      to: { path: '^src/adapters/', pathNot: '^src/adapters/http/' },
    },
    {
      name: 'v1-does-not-lean-on-acto',
      comment: 'The native API stands without the ACTO personality: what both use lives in adapters/http (routes/, codecs/), and the acto slice can be left out whole.',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/adapters/http/acto/', '^src/composition/'] },
      to: { path: '^src/adapters/http/acto/' },
    },
    {
      name: 'only-the-cli-imports-the-cli',
      comment: 'The CLI is a driving adapter of its own: the registry and the other adapters never depend on it. What both use (the key file\'s format) lives in the adapter it belongs to.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/adapters/cli/' },
      to: { path: '^src/adapters/cli/' },
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
      name: 'no-circular',
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
