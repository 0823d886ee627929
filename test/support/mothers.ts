import { isRight } from 'fp-ts/lib/Either.js';
import type { JsonObject, ProofEnvelope, TelemetryEvent } from '../../src/domain/protocol/envelope.js';
import { toProofRecord, type ProofRecord } from '../../src/domain/proof/proof-record.js';
import { protocol, testSeed } from './protocol.js';

/** Object mothers: realistic, signed test data with only the interesting parts spelled out. */

export interface EnvelopeOptions {
  taskId?: string;
  robotId?: string;
  runId?: string;
  createdAt?: string;
  events?: TelemetryEvent[];
  topics?: string[];
  meta?: JsonObject;
  seed?: number;
}

export function anEnvelope(o: EnvelopeOptions = {}): ProofEnvelope {
  const createdAt = o.createdAt ?? '2026-11-20T10:00:00Z';
  const base = Date.parse(createdAt);
  const events =
    o.events ??
    (o.topics ?? ['nav/pose', 'safety/state']).map((topic, i) => ({
      ts: new Date(base - 60_000 + i * 1000).toISOString(),
      topic,
      data: { seq: i, ok: true },
    }));
  return protocol.create(
    {
      taskId: o.taskId ?? 'task-1',
      ...(o.robotId !== undefined ? { robotId: o.robotId } : {}),
      ...(o.runId !== undefined ? { runId: o.runId } : {}),
      ...(o.meta !== undefined ? { meta: o.meta } : {}),
      events,
      createdAt,
    },
    testSeed(o.seed ?? 0),
  );
}

export function aProofRecord(wallet: string, o: EnvelopeOptions = {}, receivedAtMs = Date.parse('2026-11-21T00:00:00Z')): ProofRecord {
  const checked = protocol.check(anEnvelope(o));
  if (!isRight(checked)) throw new Error(`mother made an invalid envelope: ${JSON.stringify(checked.left)}`);
  return toProofRecord(checked.right, wallet, receivedAtMs);
}

/** ~2 KB of telemetry: the size the benchmarks and the issue targets assume. */
export function twoKilobyteEvents(createdAt = '2026-11-20T10:00:00Z', salt = 0): TelemetryEvent[] {
  const base = Date.parse(createdAt);
  return Array.from({ length: 14 }, (_, i) => ({
    ts: new Date(base - 30_000 + i * 500).toISOString(),
    topic: i % 3 === 0 ? 'nav/pose' : i % 3 === 1 ? 'joint/state' : 'safety/state',
    data: { seq: i, salt, x: 1.25 + i, y: -0.5 * i, q: [0.1, -1.5, 2.25], ok: i % 7 !== 6, note: 'nominal' },
  }));
}

export const WALLET_A = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
export const WALLET_B = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
