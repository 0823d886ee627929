import { openDatabase, type Database } from '../../src/adapters/sql/index.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../support/databases.js';
import { exportFlow } from './export-flow.js';

// The same on PostgreSQL, in a schema of its own; no skip when PostgreSQL is down.
const schema = uniqueSchemaName('dashboard_export');
let admin: Database | undefined;
exportFlow('postgres', {
  url: async () => {
    admin = await openDatabase(TEST_POSTGRES_URL, { schema, poolSize: 1 });
    const url = new URL(TEST_POSTGRES_URL);
    url.searchParams.set('options', `-c search_path=${schema}`);
    return url.toString();
  },
  drop: async () => {
    await admin?.knex.raw('drop schema if exists ?? cascade', [schema]);
    await admin?.close();
  },
});
