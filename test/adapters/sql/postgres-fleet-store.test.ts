import test from 'ava';
import { KnexFleetStore } from '../../../src/adapters/sql/knex-fleet-store.js';
import { KnexProofActivity } from '../../../src/adapters/sql/knex-proof-activity.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { fleetStoreContract } from '../../contracts/fleet-store.contract.js';
import { postgresFixture } from '../../support/databases.js';

// One schema for the file, emptied before each test: serial. No skip when PostgreSQL is down.
const pg = postgresFixture(test, 'fleet');
fleetStoreContract(
  'postgres',
  async () => {
    const db = await pg.fresh();
    return { fleet: new KnexFleetStore(db), proofs: new KnexProofStore(db), activity: new KnexProofActivity(db) };
  },
  test.serial,
);
