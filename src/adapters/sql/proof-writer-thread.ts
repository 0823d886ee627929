import { parentPort, workerData } from 'node:worker_threads';
import { parseDatabaseUrl } from './database-url.js';
import { openDatabase } from './database.js';
import { PostgresProofWriter } from './postgres-proof-writer.js';
import { toWireError, type ProofWriterReply, type ProofWriterThreadConfig, type WriteRequest } from './proof-writer-messages.js';
import type { ProofWriter } from './proof-writer.js';
import { SqliteProofWriter } from './sqlite-proof-writer.js';

/**
 * The writer thread: its own connection(s) to the database and nothing else to do, so a write
 * transaction never waits for a turn of the busy HTTP event loop. On SQLite it writes with
 * prepared statements straight on node-sqlite3 (see sqlite-proof-writer.ts); on PostgreSQL
 * as one prepared statement a batch (see postgres-proof-writer.ts), batches running
 * concurrently as they arrive (the group commit on the main thread decides how many).
 */
const port = parentPort;
if (port === null) throw new Error('proof-writer-thread.ts runs only as a worker thread');
const config = workerData as ProofWriterThreadConfig;
const send = (reply: ProofWriterReply) => port.postMessage(reply);

async function open(): Promise<{ rows: ProofWriter; close: () => Promise<void> }> {
  const target = parseDatabaseUrl(config.databaseUrl);
  if (target.dialect === 'sqlite') {
    const rows = await SqliteProofWriter.open(target.filename, { sequence: config.sequence ?? true, synchronous: config.synchronous ?? 'full' });
    return { rows, close: () => rows.close() };
  }
  const database = await openDatabase(config.databaseUrl, {
    onDriverWarning: (message) => send({ type: 'warning', message }),
    poolSize: config.connections,
    // This thread only writes.
    readerPoolSize: 0,
    ...(config.schema !== undefined ? { schema: config.schema } : {}),
  });
  return { rows: new PostgresProofWriter(database.knex, { sequence: config.sequence ?? true }), close: () => database.close() };
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
