import { MemoryKeyStore } from '../../../src/adapters/memory/memory-key-store.js';
import { MemoryNonceStore } from '../../../src/adapters/memory/memory-nonce-store.js';
import { MemoryTokenBalance } from '../../../src/adapters/memory/memory-token-balance.js';
import { keyEventsContract, keyStoreContract } from '../../contracts/key-store.contract.js';
import { localLedgerContract } from '../../contracts/local-ledger.contract.js';
import { nonceStoreContract } from '../../contracts/nonce-store.contract.js';
import { tokenBalanceContract } from '../../contracts/token-balance.contract.js';
import { amount } from '../../support/identity.js';

keyStoreContract('memory', async () => new MemoryKeyStore());
keyEventsContract('memory', async () => {
  const keys = new MemoryKeyStore();
  return { keys, events: keys.events };
});
nonceStoreContract('memory', async () => new MemoryNonceStore());
localLedgerContract('memory', async () => new MemoryTokenBalance());
tokenBalanceContract('memory fake', async (holdings) => {
  const balance = new MemoryTokenBalance();
  for (const h of holdings) await balance.set(h.owner, h.mint, amount(h.amount), 0);
  return { balance, down: () => balance.failWith('unreachable') };
});
