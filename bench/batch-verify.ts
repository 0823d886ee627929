import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { InlineBatchVerifier } from '../src/adapters/crypto/inline-batch-verifier.js';
import { startVerifyPool } from '../src/adapters/workers/verify-pool.js';
import { WorkerBatchVerifier } from '../src/adapters/workers/worker-batch-verifier.js';
import type { ProofEnvelope } from '../src/domain/protocol/envelope.js';
import { createProofProtocol } from '../src/index.js';
import { anEnvelope, twoKilobyteEvents } from '../test/support/mothers.js';

/**
 * Batch verification throughput on ~2.5 KB proofs (14 events), against the ceiling of this
 * machine: Ed25519 verification alone, on every core, with cached KeyObjects. The envelope
 * path does more than the yardstick (shape check, JCS, two BLAKE3 hashes, base64 on the main
 * thread; the signatures, packed as bytes, on the workers), so the gap between the two says
 * what that work costs, less what libsodium saves over OpenSSL.
 */
const BATCH = 1_000; // docs/protocol.md's largest batch
const DEVICES = 16; // a fleet reuses few keys: KeyObject caches hit, as in production
const ROUNDS = 15;

export interface BatchVerifyFigures {
  /** Ed25519 alone through node:crypto (OpenSSL), every core: the target's yardstick. */
  readonly rawVerifyPerSec: number;
  /** Ed25519 alone through libsodium, every core: what the pool's signature step costs. */
  readonly rawSodiumPerSec: number;
  readonly inlinePerSec: number;
  readonly poolPerSec: number;
}

/**
 * The four contenders take turns, one batch each per round (two warm-up rounds, then
 * ROUNDS), and each figure is the median of its rounds: this machine's speed drifts within
 * a minute, and measuring the yardstick and the pool side by side keeps the drift out of
 * their ratio. The median, because other processes on a shared machine make single rounds
 * jump.
 */
export async function benchBatchVerify(): Promise<BatchVerifyFigures> {
  const envelopes = Array.from({ length: BATCH }, (_, i) => anEnvelope({ taskId: `task-${i}`, events: twoKilobyteEvents(undefined, i), seed: i % DEVICES }));
  const raw = await startRawVerifiers(envelopes, RAW_WORKER);
  const sodium = await startRawVerifiers(envelopes, RAW_SODIUM_WORKER);
  const inline = new InlineBatchVerifier(await createProofProtocol());
  const workers = await startVerifyPool();
  const pool = new WorkerBatchVerifier(workers, await createProofProtocol());
  try {
    const rates = { raw: [] as number[], sodium: [] as number[], inline: [] as number[], pool: [] as number[] };
    for (let round = -2; round < ROUNDS; round++) {
      const figures = {
        raw: await raw.round(),
        sodium: await sodium.round(),
        inline: await timedBatch(() => inline.verifyMany(envelopes)),
        pool: await timedBatch(() => pool.verifyMany(envelopes)),
      };
      if (round >= 0) for (const key of Object.keys(rates) as Array<keyof typeof rates>) rates[key].push(figures[key]);
    }
    return { rawVerifyPerSec: median(rates.raw), rawSodiumPerSec: median(rates.sodium), inlinePerSec: median(rates.inline), poolPerSec: median(rates.pool) };
  } finally {
    await Promise.all([raw.close(), sodium.close(), workers.close()]);
  }
}

/** Envelopes per second of one batch. */
async function timedBatch(batch: () => Promise<readonly { valid: boolean }[]>): Promise<number> {
  const start = process.hrtime.bigint();
  const reports = await batch();
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  if (reports.some((r) => !r.valid)) throw new Error('benchmark proofs must all verify');
  return reports.length / seconds;
}

const median = (xs: number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return Math.round(sorted[Math.floor(sorted.length / 2)]!);
};

/**
 * The ceiling: one worker per core, each verifying its share of the same signatures with
 * node:crypto and cached KeyObjects, nothing else. Plain JavaScript in an eval worker, so no
 * loader sits between it and OpenSSL.
 */
const RAW_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const { createPublicKey, verify } = require('node:crypto');
const SPKI = Buffer.from('302a300506032b6570032100', 'hex');
const keys = new Map();
const items = workerData.map(([key, message, signature]) => {
  if (!keys.has(key)) keys.set(key, createPublicKey({ key: Buffer.concat([SPKI, Buffer.from(key, 'base64')]), format: 'der', type: 'spki' }));
  return [keys.get(key), Buffer.from(message), Buffer.from(signature, 'base64')];
});
parentPort.on('message', () => {
  const start = process.hrtime.bigint();
  let ok = 0;
  for (const [key, message, signature] of items) if (verify(null, message, key, signature)) ok++;
  parentPort.postMessage({ ok, seconds: Number(process.hrtime.bigint() - start) / 1e9 });
});
parentPort.postMessage('ready');
`;

/** The same loop through libsodium (sodium-native), which the registry uses by default. */
const RAW_SODIUM_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const sodium = require(${JSON.stringify(createRequire(import.meta.url).resolve('sodium-native'))});
const items = workerData.map(([key, message, signature]) => [Buffer.from(key, 'base64'), Buffer.from(message), Buffer.from(signature, 'base64')]);
parentPort.on('message', () => {
  const start = process.hrtime.bigint();
  let ok = 0;
  for (const [key, message, signature] of items) if (sodium.crypto_sign_verify_detached(signature, message, key)) ok++;
  parentPort.postMessage({ ok, seconds: Number(process.hrtime.bigint() - start) / 1e9 });
});
parentPort.postMessage('ready');
`;

/** One raw-verify worker per core, each holding its share of the signatures; `round()` verifies them all once. */
async function startRawVerifiers(envelopes: readonly ProofEnvelope[], script: string): Promise<{ round(): Promise<number>; close(): Promise<void> }> {
  const cores = availableParallelism();
  const triples = envelopes.map((e) => [e.signer_public_key_b64, e.payload.payload_hash, e.signature_b64]);
  const workers = Array.from({ length: cores }, (_, w) => new Worker(script, { eval: true, workerData: triples.filter((_, i) => i % cores === w) }));
  const close = async () => void (await Promise.all(workers.map((worker) => worker.terminate())));
  try {
    await Promise.all(workers.map((worker) => once<string>(worker)));
  } catch (error) {
    await close();
    throw error;
  }
  return {
    close,
    round: async () => {
      const results = await Promise.all(
        workers.map((worker) => {
          worker.postMessage('go');
          return once<{ ok: number; seconds: number }>(worker);
        }),
      );
      if (results.reduce((sum, r) => sum + r.ok, 0) !== envelopes.length) throw new Error('raw verification failed');
      // The batch is done when the slowest worker is.
      return envelopes.length / Math.max(...results.map((r) => r.seconds));
    },
  };
}

const once = <T>(worker: Worker): Promise<T> =>
  new Promise((resolve, reject) => {
    const onMessage = (message: T): void => {
      worker.off('error', reject);
      resolve(message);
    };
    worker.once('message', onMessage);
    worker.once('error', reject);
  });

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await benchBatchVerify();
  const pct = (x: number): string => `${Math.round((100 * x) / figures.rawVerifyPerSec)}%`;
  console.log(`batch of ${BATCH} ~2.5 KB proofs, ${availableParallelism()} cores, median of ${ROUNDS} rounds`);
  console.log(`raw Ed25519 verify (all cores): ${figures.rawVerifyPerSec} /s node:crypto, ${figures.rawSodiumPerSec} /s libsodium`);
  console.log(`inline batch verify:            ${figures.inlinePerSec} envelopes/s (${pct(figures.inlinePerSec)} of raw)`);
  console.log(`worker-pool batch verify:       ${figures.poolPerSec} envelopes/s (${pct(figures.poolPerSec)} of raw)`);
}
