import { MemoryProofStore } from '../../../src/adapters/memory/memory-proof-store.js';
import { MemoryKeyUsageHistory, MemoryProofRejectionLog, MemoryProofSeries } from '../../../src/adapters/memory/memory-usage-series.js';
import { usageSeriesContract } from '../../contracts/usage-series.contract.js';

usageSeriesContract('memory', async () => {
  const proofs = new MemoryProofStore();
  return { history: new MemoryKeyUsageHistory(), rejections: new MemoryProofRejectionLog(), series: new MemoryProofSeries(proofs), proofs };
});
