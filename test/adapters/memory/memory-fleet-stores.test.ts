import { MemoryDeviceStore } from '../../../src/adapters/memory/memory-device-store.js';
import { MemoryFleet } from '../../../src/adapters/memory/memory-fleet.js';
import { MemoryGroupStore } from '../../../src/adapters/memory/memory-group-store.js';
import { MemoryProofActivity } from '../../../src/adapters/memory/memory-proof-activity.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { deviceStoreContract } from '../../contracts/device-store.contract.js';
import type { FleetFixture } from '../../contracts/fleet-fixture.js';
import { groupStoreContract } from '../../contracts/group-store.contract.js';

const make = async (): Promise<FleetFixture> => {
  const fleet = new MemoryFleet();
  const proofs = new MemoryProofStore(fleet);
  return { devices: new MemoryDeviceStore(fleet), groups: new MemoryGroupStore(fleet), proofs, activity: new MemoryProofActivity(proofs) };
};
deviceStoreContract('memory', make);
groupStoreContract('memory', make);
