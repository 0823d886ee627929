import { parentPort, workerData } from 'node:worker_threads';
import { parseDatabaseUrl } from './database-url.js';
import { openDatabase } from './database.js';
import type { RowWriter } from './proof-batch-writer.js';
import { PostgresRowWriter } from './postgres-row-writer.js';
import { toWireError, type RowWriterConfig, type RowWriterReply, type WriteRequest } from './row-writer-messages.js';
import { SqliteRowWriter } from './sqlite-row-writer.js';

/**
 * The writer thread: its own connection(s) to the database and nothing else to do, so a write
 * transaction never waits for a turn of the busy HTTP event loop. On SQLite it writes with
 * prepared statements straight on node-sqlite3 (see sqlite-row-writer.ts); on PostgreSQL
 * as one prepared statement a batch (see postgres-row-writer.ts), batches running
 * concurrently as they arrive (the batch writer on the main thread decides how many).
 */
const port = parentPort;
if (port === null) throw new Error('row-writer-worker.ts runs only as a worker thread');
const config = workerData as RowWriterConfig;
const send = (reply: RowWriterReply) => port.postMessage(reply);

async function open(): Promise<{ rows: RowWriter; close: () => Promise<void> }> {
  const target = parseDatabaseUrl(config.databaseUrl);
  if (target.dialect === 'sqlite') {
    const rows = await SqliteRowWriter.open(target.filename);
    return { rows, close: () => rows.close() };
  }
  const database = await openDatabase(config.databaseUrl, {
    onDriverWarning: (message) => send({ type: 'warning', message }),
    poolSize: config.connections,
    ...(config.schema !== undefined ? { schema: config.schema } : {}),
  });
  return { rows: new PostgresRowWriter(database.knex), close: () => database.close() };
}

try {
  const { rows, close } = await open();
  port.on('message', (message: WriteRequest | 'close') => {
    if (message === 'close') {
      void close().finally(() => port.close());
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
