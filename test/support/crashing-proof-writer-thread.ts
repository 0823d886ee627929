import { parentPort } from 'node:worker_threads';
import type { WriteRequest } from '../../src/adapters/sql/proof-writer-messages.js';

/**
 * A row writer thread that dies as soon as it is handed a proof of task "crash", and is
 * otherwise the real one. Its listener is registered first, so it runs before the real one's.
 */
parentPort?.on('message', (message: WriteRequest | 'close') => {
  if (message !== 'close' && message.batch.some((p) => p.row.task_id === 'crash')) process.exit(3);
});
await import('../../src/adapters/sql/proof-writer-thread.js');
