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
import { sqliteFixture } from '../../support/databases.js';

const sqlite = sqliteFixture(test);
const make = async (): Promise<FleetFixture> => {
  const db = await sqlite.fresh();
  return {
    devices: new KnexDeviceStore(db),
    groups: new KnexGroupStore(db),
    proofs: new KnexProofStore(db),
    activity: new KnexProofActivity(db),
    stats: new KnexWalletStats(db),
  };
};
deviceStoreProofsContract('sqlite', make);
deviceStoreReportsContract('sqlite', make);
deviceStoreEditsContract('sqlite', make);
groupStoreContract('sqlite', make);
walletStatsContract('sqlite', make);
