import test from 'ava';
import { SqliteProofWriter } from '../../../src/adapters/sql/sqlite-proof-writer.js';
import { sqliteFixture } from '../../support/databases.js';
import { knexLogStoreChecks } from './knex-log-stores.checks.js';

const sqlite = sqliteFixture(test);
knexLogStoreChecks(
  'sqlite',
  test,
  () => sqlite.fresh(),
  (db) => SqliteProofWriter.onKnex(db.knex),
  test,
);
