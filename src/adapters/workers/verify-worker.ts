import { parentPort, workerData } from 'node:worker_threads';
import { receivedText } from '../../application/proofs/received-envelope.js';
import { createProofProtocol } from '../crypto/proof-protocol-factory.js';
import { checkSafely } from '../crypto/inline-batch-verifier.js';
import { signatureVerdictByte, SIGNATURE_RECORD_BYTES, type ChunkRequest, type VerifyWorkerConfig, type WorkerReply } from './worker-messages.js';

/**
 * One verify worker of the pool: builds its own protocol (its own BLAKE3 WASM instance and
 * KeyObject cache: neither can be shared across threads). It answers a chunk of envelopes
 * (submissions) with one check outcome per envelope, and a chunk of packed signatures (a
 * batch verify's check 7) with one verdict per signature, in order. It never answers with
 * less: a chunk it cannot read at all is sent back as failed, and the pool redoes it inline.
 */
const port = parentPort;
if (port === null) throw new Error('verify-worker.ts runs only as a worker thread');

const config = workerData as VerifyWorkerConfig;
const protocol = await createProofProtocol(config.protocol);

port.on('message', (request: ChunkRequest) => {
  let reply: WorkerReply;
  try {
    if ('signatures' in request) {
      reply = verifySignatures(request.id, new Uint8Array(request.signatures), request.count);
    } else {
      // Check outcomes, far smaller to send back than reports. Each envelope's text as sent is
      // read again only if its hashes do not match in the JCS form (the ACTO form needs it).
      const received = receivedText(request.json, protocol.limits.maxDepth + 1);
      const asSent = new Set(request.asSent ?? []);
      reply = {
        type: 'done',
        id: request.id,
        results: (JSON.parse(request.json) as unknown[]).map((raw, i) => checkSafely(protocol, raw, asSent.has(i) ? received(i) : undefined)),
      };
    }
  } catch (error) {
    reply = { type: 'failed', id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});

/** Check 7 for each packed record; a verifier that throws is reported as such, for the pool to redo inline. */
function verifySignatures(id: number, records: Uint8Array, count: number): WorkerReply {
  if (records.length !== count * SIGNATURE_RECORD_BYTES)
    throw new RangeError(`${count} signature records need ${count * SIGNATURE_RECORD_BYTES} bytes, not ${records.length}`);
  const verdicts = new Uint8Array(count);
  for (let i = 0, at = 0; i < count; i++, at += SIGNATURE_RECORD_BYTES) {
    verdicts[i] = signatureVerdictByte(
      protocol.verifier,
      records.subarray(at, at + 32),
      records.subarray(at + 32, at + 96),
      records.subarray(at + 96, at + 160),
    );
  }
  return { type: 'verified', id, verdicts };
}

port.postMessage({ type: 'ready' } satisfies WorkerReply);
