import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { proofStoreContract } from '../../contracts/proof-store.contract.js';
import { proofTextSearchContract } from '../../contracts/proof-text-search.contract.js';

proofStoreContract('memory', async () => new MemoryProofStore());
proofTextSearchContract('memory', async () => new MemoryProofStore());
