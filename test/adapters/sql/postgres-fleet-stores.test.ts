import test from 'ava';
import { KnexDeviceStore } from '../../../src/adapters/sql/knex-device-store.js';
import { KnexGroupStore } from '../../../src/adapters/sql/knex-group-store.js';
import { KnexProofActivity } from '../../../src/adapters/sql/knex-proof-activity.js';
import { KnexProofStore } from '../../../src/adapters/sql/knex-proof-store.js';
import { KnexWalletStats } from '../../../src/adapters/sql/knex-wallet-stats.js';
import { deviceStoreEditsContract } from '../../contracts/device-store-edits.contract.js';
import { deviceStoreProofsContract } from '../../contracts/device-store-proofs.contract.js';
import { deviceStoreReportsContract } from '../../contracts/device-store-reports.contract.js';
import type { FleetFixture } from '../../contracts/fleet-fixture.js';
import { groupStoreContract } from '../../contracts/group-store.contract.js';
import { walletStatsContract } from '../../contracts/wallet-stats.contract.js';
import { postgresFixture } from '../../support/databases.js';

// One schema for the file, emptied before each test: serial. No skip when PostgreSQL is down.
const pg = postgresFixture(test, 'fleet');
const make = async (): Promise<FleetFixture> => {
  const db = await pg.fresh();
  return {
    devices: new KnexDeviceStore(db),
    groups: new KnexGroupStore(db),
    proofs: new KnexProofStore(db),
    activity: new KnexProofActivity(db),
    stats: new KnexWalletStats(db),
  };
};
deviceStoreProofsContract('postgres', make, test.serial);
deviceStoreReportsContract('postgres', make, test.serial);
deviceStoreEditsContract('postgres', make, test.serial);
groupStoreContract('postgres', make, test.serial);
walletStatsContract('postgres', make, test.serial);
