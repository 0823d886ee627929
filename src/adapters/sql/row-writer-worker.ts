import { parentPort, workerData } from 'node:worker_threads';
import { openDatabase } from './database.js';
import { InlineRowWriter } from './proof-batch-writer.js';
import { toWireError, type RowWriterConfig, type RowWriterReply, type WriteRequest } from './row-writer-messages.js';

/**
 * The writer thread: its own connection(s) to the database and nothing else to do, so the
 * round trips of a write transaction (BEGIN, inserts, device counts, COMMIT) follow each other
 * at once instead of each waiting for a turn of the busy HTTP event loop. Batches run
 * concurrently as they arrive; the batch writer on the main thread decides how many.
 */
const port = parentPort;
if (port === null) throw new Error('row-writer-worker.ts runs only as a worker thread');
const config = workerData as RowWriterConfig;
const send = (reply: RowWriterReply) => port.postMessage(reply);

try {
  const database = await openDatabase(config.databaseUrl, {
    poolSize: config.connections,
    ...(config.schema !== undefined ? { schema: config.schema } : {}),
  });
  const rows = new InlineRowWriter(database.knex);
  port.on('message', (message: WriteRequest | 'close') => {
    if (message === 'close') {
      void database.close().finally(() => port.close());
      return;
    }
    rows.write(message.batch).then(
      (outcomes) => send({ type: 'done', id: message.id, outcomes }),
      (err: unknown) => send({ type: 'failed', id: message.id, error: toWireError(err) }),
    );
  });
  send({ type: 'ready' });
} catch (err) {
  send({ type: 'open-failed', error: toWireError(err) });
}
