import test from 'ava';
import { KnexFleetStore } from '../../../src/adapters/sql/knex-fleet-store.js';
import { KnexProofActivity } from '../../../src/adapters/sql/knex-proof-activity.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { fleetStoreContract } from '../../contracts/fleet-store.contract.js';
import { sqliteFixture } from '../../support/databases.js';

const sqlite = sqliteFixture(test);
fleetStoreContract('sqlite', async () => {
  const db = await sqlite.fresh();
  return { fleet: new KnexFleetStore(db), proofs: new KnexProofStore(db), activity: new KnexProofActivity(db) };
});
