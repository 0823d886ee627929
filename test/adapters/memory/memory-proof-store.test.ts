import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { proofStoreContract } from '../../contracts/proof-store.contract.js';

proofStoreContract('memory', async () => new MemoryProofStore());
