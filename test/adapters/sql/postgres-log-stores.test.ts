import test from 'ava';
import { PostgresProofWriter } from '../../../src/adapters/sql/postgres-proof-writer.js';
import { postgresFixture } from '../../support/databases.js';
import { knexLogStoreChecks } from './knex-log-stores.checks.js';

const pg = postgresFixture(test, 'log_stores');
// A writer per append: concurrent appends are concurrent transactions, as from several instances.
knexLogStoreChecks(
  'postgres',
  test,
  () => pg.fresh(),
  (db) => new PostgresProofWriter(db.knex),
  test.serial,
);
