import { parentPort } from 'node:worker_threads';

/**
 * A verify worker that answers signature chunks wrongly, in turn: one verdict short, then a
 * verifier that threw on every signature, then an answer to another chunk's id. The pool must
 * still give every envelope the report inline verification gives.
 */
let chunk = 0;
parentPort?.postMessage({ type: 'ready' });
parentPort?.on('message', (request: { id: number; count?: number }) => {
  const count = request.count ?? 0;
  const turn = chunk++ % 3;
  if (turn === 0) parentPort?.postMessage({ type: 'verified', id: request.id, verdicts: new Uint8Array(Math.max(0, count - 1)).fill(1) });
  else if (turn === 1) parentPort?.postMessage({ type: 'verified', id: request.id, verdicts: new Uint8Array(count).fill(2) });
  else {
    parentPort?.postMessage({ type: 'verified', id: request.id + 1_000_000, verdicts: new Uint8Array(count).fill(1) });
    parentPort?.postMessage({ type: 'failed', id: request.id, error: 'no' });
  }
});
