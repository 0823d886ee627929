import { SeedCheckpointSigner } from '../../../src/adapters/crypto/seed-checkpoint-signer.js';
import { TweetnaclEd25519 } from '../../../src/adapters/crypto/tweetnacl-ed25519.js';
import { NodeEd25519 } from '../../../src/adapters/crypto/node-ed25519.js';
import { MemoryCheckpointStore } from '../../../src/adapters/memory/memory-checkpoint-store.js';
import { MemoryLogTileStore } from '../../../src/adapters/memory/memory-log-tile-store.js';
import { MemorySequencedLeaves } from '../../../src/adapters/memory/memory-sequenced-leaves.js';
import { checkpointSignerContract } from '../../contracts/checkpoint-signer.contract.js';
import { checkpointStoreContract } from '../../contracts/checkpoint-store.contract.js';
import { logTileStoreContract } from '../../contracts/log-tile-store.contract.js';
import { sequencedLeavesContract } from '../../contracts/sequenced-leaves.contract.js';

logTileStoreContract('memory', async () => new MemoryLogTileStore());
checkpointStoreContract('memory', async () => new MemoryCheckpointStore());
sequencedLeavesContract('memory', async () => {
  const leaves = new MemorySequencedLeaves();
  return {
    leaves,
    async append(batch) {
      await Promise.resolve();
      for (const leaf of batch) leaves.append(leaf);
    },
  };
});
checkpointSignerContract(
  'seed, node:crypto',
  async () => new SeedCheckpointSigner(new NodeEd25519(), new Uint8Array(32).fill(3), 'registry.example/proof-registry'),
);
checkpointSignerContract('seed, tweetnacl', async () => new SeedCheckpointSigner(new TweetnaclEd25519(), new Uint8Array(32).fill(4), 'registry.example/log'));
