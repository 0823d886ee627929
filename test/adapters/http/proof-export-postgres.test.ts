import test from 'ava';
import { openDatabase, type Database } from '../../../src/adapters/sql/index.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../../support/databases.js';
import { proofExportSuite } from './proof-export-suite.js';

// In a schema of its own; no skip when PostgreSQL is down (every test fails).
const schema = uniqueSchemaName('proof_export');
let admin: Database | undefined;
proofExportSuite('postgres', async () => {
  admin = await openDatabase(TEST_POSTGRES_URL, { schema, poolSize: 1 });
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return url.toString();
});
test.after.always(async () => {
  await admin?.knex.raw('drop schema if exists ?? cascade', [schema]);
  await admin?.close();
});
