import { openDatabase, type Database } from '../../src/adapters/sql/index.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../support/databases.js';
import { everyPage } from './every-page.js';
import { firstSteps } from './first-steps.js';
import { keyboardAndPhone } from './keyboard.js';

// The same pages on PostgreSQL, in a schema of their own; no skip when PostgreSQL is down.
const schema = uniqueSchemaName('dashboard_every_page');
let admin: Database | undefined;
const d = everyPage('postgres', {
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
keyboardAndPhone(d);
firstSteps(d);
