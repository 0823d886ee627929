export { openDatabase, type Database, type DatabaseOptions, type Dialect } from './database.js';
export { parseDatabaseUrl, type DatabaseTarget } from './database-url.js';
export { migrateLatest, appliedMigrations, knownMigrations } from './migrate.js';
export { KnexProofStore } from './knex-proof-store.js';
