import type { ProofEnvelope } from '../src/domain/protocol/envelope.js';
import { anEnvelope, twoKilobyteEvents } from '../test/support/mothers.js';

/** Devices of the benchmark fleet, and the signing keys they share. */
const FLEET_ROBOTS = 64;
const FLEET_KEYS = 16;
/** Device time between two consecutive proofs of the fleet. */
const PROOF_INTERVAL_MS = 10;

/** Where this process's proofs start in time: two days back, so that none is in the future. */
const START_MS = Math.floor((Date.now() - 2 * 86_400_000) / 1000) * 1000;
let sequence = 0;

/**
 * The benchmarks' proofs, as a fleet makes them: about 2.5 KB each (14 telemetry events),
 * from 64 robots signing with 16 keys, and each stamped a little later than the one before.
 *
 * A device stamps `created_at` when it makes the proof, so proofs reach the registry roughly
 * in `created_at` order, and the indexes that end in `created_at` grow at their ends. Proofs
 * all stamped with the same instant would instead land at random places in those indexes,
 * ordered there by proof id, which costs SQLite a third more pages written per proof.
 */
export function fleetProof(label: string): ProofEnvelope {
  const i = sequence++;
  const createdAt = new Date(START_MS + i * PROOF_INTERVAL_MS).toISOString();
  return anEnvelope({
    taskId: `${label}-${i}`,
    robotId: `robot-${i % FLEET_ROBOTS}`,
    createdAt,
    events: twoKilobyteEvents(createdAt, i),
    seed: i % FLEET_KEYS,
  });
}

/** `count` request bodies of POST /v1/proofs, each a distinct proof, in `created_at` order. */
export function fleetProofBodies(count: number, label: string): string[] {
  return Array.from({ length: count }, () => JSON.stringify({ envelope: fleetProof(label) }));
}
