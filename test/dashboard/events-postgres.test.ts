import { openDatabase, type Database } from '../../src/adapters/sql/index.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../support/databases.js';
import { eventsDashboard } from './events-dashboard.js';
import { liveFlow } from './live-flow.js';
import { webhooksFlow } from './webhooks-flow.js';

// The same scenarios on PostgreSQL, in a schema of their own; no skip when it is down.
const schema = uniqueSchemaName('dashboard_events');
let admin: Database | undefined;
const d = eventsDashboard('postgres', {
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
webhooksFlow(d, { refusedPrivate: false });
liveFlow(d);
