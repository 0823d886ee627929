import { MemoryKeyStore } from '../../../src/adapters/memory/memory-key-store.js';
import { MemoryProofBreakdown } from '../../../src/adapters/memory/memory-proof-breakdown.js';
import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { MemoryKeyUsageHistory, MemoryProofRejectionLog, MemoryProofSeries } from '../../../src/adapters/memory/memory-usage-series.js';
import { statisticsContract } from '../../contracts/statistics.contract.js';

statisticsContract('memory', async () => {
  const proofs = new MemoryProofStore();
  return {
    proofs,
    series: new MemoryProofSeries(proofs),
    breakdown: new MemoryProofBreakdown(proofs),
    rejections: new MemoryProofRejectionLog(),
    keys: new MemoryKeyStore(),
    usage: new MemoryKeyUsageHistory(),
  };
});
