import { parentPort } from 'node:worker_threads';

/**
 * A verify worker that dies on its first chunk, as a worker hit by an out-of-memory error or
 * a native crash would: the pool must replace it and still answer every envelope.
 */
parentPort?.postMessage({ type: 'ready' });
parentPort?.on('message', () => process.exit(3));
