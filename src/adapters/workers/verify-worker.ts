import { parentPort, workerData } from 'node:worker_threads';
import { createProofProtocol } from '../../index.js';
import { checkSafely } from '../crypto/inline-batch-verifier.js';
import type { ChunkRequest, VerifyWorkerConfig, WorkerReply } from './worker-messages.js';

/**
 * One verify worker of the pool: builds its own protocol (its own BLAKE3 WASM instance and
 * KeyObject cache: neither can be shared across threads) and answers each chunk with one
 * report (or, for submissions, one check outcome) per envelope, in order. It never answers with less: a chunk it cannot read at all
 * is sent back as failed, and the pool verifies it inline.
 */
const port = parentPort;
if (port === null) throw new Error('verify-worker.ts runs only as a worker thread');

const config = workerData as VerifyWorkerConfig;
const protocol = await createProofProtocol(config.protocol);

port.on('message', (request: ChunkRequest) => {
  let reply: WorkerReply;
  try {
    const envelopes = 'json' in request ? (JSON.parse(request.json) as unknown[]) : request.envelopes;
    // Check outcomes for both modes: far smaller to send back than reports, which the pool
    // builds from them (a report is toReport of the check).
    const results = envelopes.map((raw) => checkSafely(protocol, raw));
    reply = { type: 'done', id: request.id, results };
  } catch (error) {
    reply = { type: 'failed', id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});

port.postMessage({ type: 'ready' } satisfies WorkerReply);
