import { parentPort } from 'node:worker_threads';
import { scaleRows } from './scale-data.js';

/** A thread of the scale loader (scale-load.ts): makes the batches it is asked for, signed and hashed. */
parentPort!.on('message', (m: { id: number; from: number; to: number; total: number }) => {
  parentPort!.postMessage({ id: m.id, rows: scaleRows(m.from, m.to, m.total) });
});
parentPort!.postMessage('ready');
