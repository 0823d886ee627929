/**
 * Architecture rules (STYLE.md): dependencies point inward.
 *   domain      -> itself, plus pure libraries (fp-ts)
 *   application -> domain
 *   adapters    -> application, domain
 *   only the composition root (container.ts) and main.ts know Inversify.
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
      to: { path: ['^src/adapters', '^src/container', '^src/main'] },
    },
    {
      name: 'inversify-only-in-composition-root',
      comment: 'Only the composition root wires the container; everything else stays plain classes.',
      severity: 'error',
      from: { pathNot: ['^src/container\\.ts$', '^src/main\\.ts$'] },
      to: { path: 'node_modules/(inversify|@inversifyjs)/' },
    },
    {
      name: 'library-entry-has-no-server',
      comment: 'src/index.ts and the modules it exports are embedded by other services: no Koa, no database drivers.',
      severity: 'error',
      from: { path: '^src/(index|log-verification)\\.ts$' },
      to: { path: ['^src/adapters/(http|sql)', 'node_modules/(koa|@koa|knex|pg|sqlite3)/'] },
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
