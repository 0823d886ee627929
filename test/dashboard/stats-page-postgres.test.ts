import { openDatabase, type Database } from '../../src/adapters/sql/index.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../support/databases.js';
import { statsPage } from './stats-page.js';

// The Statistics page on PostgreSQL, in a schema of its own. No skip when PostgreSQL is down: the
// registry cannot start, and every test here fails.
const schema = uniqueSchemaName('dashboard_stats');
let admin: Database | undefined;
statsPage('postgres', {
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
