import { getPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { currentThreadId } from '../../../src/adapters/workers/thread-priority.js';

// Tells the test its thread id and niceness as it starts; with workerData `{ stay: true }` it
// then runs until terminated.
const id = currentThreadId();
parentPort!.postMessage({ id, nice: id === null ? null : getPriority(id) });
if ((workerData as { stay?: boolean } | null)?.stay) setInterval(() => undefined, 60_000);
