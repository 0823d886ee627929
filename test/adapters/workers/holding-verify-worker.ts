import { parentPort } from 'node:worker_threads';
import { checkSafely } from '../../../src/adapters/crypto/inline-batch-verifier.js';
import { createProofProtocol } from '../../../src/adapters/crypto/proof-protocol-factory.js';

/**
 * A verify worker that answers no submission until it holds HELD messages of them at once,
 * then answers them all, and every later one at once. A pool that waits for an answer before
 * sending more never gets its submissions checked by it.
 */
export const HELD = 8;
const protocol = await createProofProtocol();
const held: Array<{ id: number; json: string }> = [];
let released = false;
const answer = ({ id, json }: { id: number; json: string }) =>
  parentPort?.postMessage({ type: 'done', id, results: (JSON.parse(json) as unknown[]).map((raw) => checkSafely(protocol, raw)) });
parentPort?.postMessage({ type: 'ready' });
parentPort?.on('message', (request: { id: number; json: string }) => {
  if (released) return answer(request);
  held.push(request);
  if (held.length < HELD) return;
  released = true;
  for (const r of held.splice(0)) answer(r);
});
