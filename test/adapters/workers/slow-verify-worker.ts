import { parentPort } from 'node:worker_threads';
import { createProofProtocol } from '../../../src/adapters/crypto/proof-protocol-factory.js';

/**
 * A verify worker that answers each signature chunk correctly but only after 100 ms, as a
 * worker starved of a core would: the pool's own thread runs out of envelopes to check long
 * before it has answers.
 */
const protocol = await createProofProtocol();
parentPort?.postMessage({ type: 'ready' });
parentPort?.on('message', (request: { id: number; signatures: ArrayBuffer; count: number }) => {
  const records = new Uint8Array(request.signatures);
  const verdicts = new Uint8Array(request.count);
  for (let i = 0, at = 0; i < request.count; i++, at += 160) {
    verdicts[i] = protocol.verifier.verify(records.subarray(at, at + 32), records.subarray(at + 32, at + 96), records.subarray(at + 96, at + 160)) ? 1 : 0;
  }
  setTimeout(() => parentPort?.postMessage({ type: 'verified', id: request.id, verdicts }), 100);
});
