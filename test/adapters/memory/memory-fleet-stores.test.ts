import { MemoryDeviceStore } from '../../../src/adapters/memory/memory-device-store.js';
import { MemoryFleet } from '../../../src/adapters/memory/memory-fleet.js';
import { MemoryGroupStore } from '../../../src/adapters/memory/memory-group-store.js';
import { MemoryProofActivity } from '../../../src/adapters/memory/memory-proof-activity.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { MemoryWalletStats } from '../../../src/adapters/memory/memory-wallet-stats.js';
import { deviceStoreEditsContract } from '../../contracts/device-store-edits.contract.js';
import { deviceStoreProofsContract } from '../../contracts/device-store-proofs.contract.js';
import { deviceStoreReportsContract } from '../../contracts/device-store-reports.contract.js';
import type { FleetFixture } from '../../contracts/fleet-fixture.js';
import { groupStoreContract } from '../../contracts/group-store.contract.js';
import { walletStatsContract } from '../../contracts/wallet-stats.contract.js';

const make = async (): Promise<FleetFixture> => {
  const fleet = new MemoryFleet();
  const stats = new MemoryWalletStats(fleet);
  const proofs = new MemoryProofStore(stats);
  return { devices: new MemoryDeviceStore(fleet), groups: new MemoryGroupStore(fleet), proofs, activity: new MemoryProofActivity(proofs), stats };
};
deviceStoreProofsContract('memory', make);
deviceStoreReportsContract('memory', make);
deviceStoreEditsContract('memory', make);
groupStoreContract('memory', make);
walletStatsContract('memory', make);
