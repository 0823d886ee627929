import { MemoryFleetStore } from '../../../src/adapters/memory/memory-fleet-store.js';
import { MemoryProofActivity } from '../../../src/adapters/memory/memory-proof-activity.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { fleetStoreContract } from '../../contracts/fleet-store.contract.js';

fleetStoreContract('memory', async () => {
  const fleet = new MemoryFleetStore();
  const proofs = new MemoryProofStore(fleet);
  return { fleet, proofs, activity: new MemoryProofActivity(proofs) };
});
