import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { proofStoreAddContract } from '../../contracts/proof-store-add.contract.js';
import { proofStoreSearchContract } from '../../contracts/proof-store-search.contract.js';
import { proofTextSearchContract } from '../../contracts/proof-text-search.contract.js';

proofStoreAddContract('memory', async () => new MemoryProofStore());
proofStoreSearchContract('memory', async () => new MemoryProofStore());
proofTextSearchContract('memory', async () => new MemoryProofStore());
