import { toRow } from '../src/adapters/sql/proof-rows.js';
import type { PendingRow } from '../src/adapters/sql/proof-writer.js';
import type { JsonObject, ProofEnvelope, TelemetryEvent } from '../src/domain/protocol/envelope.js';
import { toProofRecord, type ProofRecord } from '../src/domain/proof/proof-record.js';
import { protocols, testSeed } from '../test/support/protocol.js';

/**
 * The proofs of `npm run bench:scale` (see scale.ts), deterministic: proof `i` of `total` is
 * the same wherever and whenever it is made, so worker threads can make them in any order.
 *
 * Sized so that ten million take about 25 GB on SQLite with every index (about 34 GB on
 * PostgreSQL; bench/results/2026-11-25-scale-loading-and-size.md), one database at a time on the disk: most proofs hold one
 * event per topic they carry (2.2 topics on average, envelopes of 0.8 KB or so); one in 20
 * holds 5–16 events (up to about 1.7 KB), as a long task does.
 */
export const ROBOTS = 500;
export const TASKS = 2_000;
export const DAY = 86_400_000;
export const END_MS = Date.parse('2026-11-20T00:00:00Z');
export const SPAN_MS = 90 * DAY;
const SITES = ['lyon', 'paris', 'berlin', 'madrid', 'rome', 'oslo', 'turin', 'porto', 'gent', 'brno', ...Array.from({ length: 30 }, (_, i) => `site${i}`)];
/** Topics and the share of proofs holding each (the last one never in the big wallet). */
const TOPICS: Array<[string, number]> = [
  ['nav/pose', 0.77],
  ['joint/state', 0.3],
  ['safety/state', 0.2],
  ['gripper/force', 0.15],
  ['vision/frame', 0.1],
  ['battery', 0.08],
  ['weld/arc', 0.14],
  ['paint/spray', 0.05],
  ...Array.from({ length: 20 }, (_, i): [string, number] => [`sensor/${i}`, 0.03 - i * 0.001]),
  ['alarm/estop', 0.001],
  ['absent/topic', 0],
];
/** Share of proofs with 5–16 events; the others hold one event per topic. */
const LONG_SHARE = 0.05;

export const walletAddress = (w: number) => `ScaleWallet${String(w).padStart(3, '0')}`.padEnd(44, '1');
export const BIG = walletAddress(0);

/** A small deterministic generator (mulberry32). */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const seeds = Array.from({ length: ROBOTS }, (_, r) => testSeed(r));

/** Proof number `i` of `total`: the same for the same (i, total), signed by its robot's key. */
export function scaleProof(i: number, total: number): { wallet: string; envelope: ProofEnvelope } {
  const r = rng(i * 2_654_435_761 + 17);
  // 60% in wallet 0; the rest over 49 wallets, the lower ones busier.
  const w = r() < 0.6 ? 0 : 1 + Math.floor(49 * r() * r());
  const robot = (w * 37 + Math.floor(r() * (w === 0 ? 300 : 10))) % ROBOTS;
  const createdAtMs = END_MS - SPAN_MS + Math.floor(((i + r()) / total) * SPAN_MS);
  const createdAt = new Date(createdAtMs).toISOString();
  const topics = TOPICS.filter(([name, share]) => (name === 'absent/topic' ? w !== 0 && r() < 0.05 : r() < share)).map(([t]) => t);
  if (topics.length === 0) topics.push('nav/pose');
  // Every topic drawn has at least one event, so each topic's share is the one listed.
  const n = r() < LONG_SHARE ? Math.max(topics.length, 5 + Math.floor(r() * 12)) : topics.length;
  const events: TelemetryEvent[] = Array.from({ length: n }, (_, k) => ({
    ts: new Date(createdAtMs - (n - k) * 500).toISOString(),
    topic: topics[k % topics.length]!,
    data: { seq: k, x: Math.round(r() * 1000) / 100 },
  }));
  const meta: JsonObject = { site: SITES[Math.floor(r() * SITES.length)]!, shift: r() < 0.5 ? 'day' : 'night', operator: `op-${Math.floor(r() * 300)}` };
  if (i % 100_000 === 50_000) meta['note'] = `quasar-${i}`;
  const envelope = protocols.libsodium.create(
    {
      taskId: `task-${Math.floor(r() * r() * TASKS)}`,
      ...(r() < 0.98 ? { robotId: `robot-${robot}` } : {}),
      ...(r() < 0.5 ? { runId: `run-${Math.floor(i / 50)}` } : {}),
      events,
      meta,
      createdAt,
    },
    seeds[robot]!,
  );
  return { wallet: walletAddress(w), envelope };
}

/** The record the registry would keep for a scale proof, received a second after it was made. */
export function scaleRecord(p: { wallet: string; envelope: ProofEnvelope }): ProofRecord {
  const createdAtMs = Date.parse(p.envelope.payload.created_at);
  return toProofRecord({ proofId: p.envelope.payload.payload_hash, envelope: p.envelope, createdAtMs }, p.wallet, createdAtMs + 1_000);
}

/** Proofs [from, to) of `total` as the batch writers take them. */
export function scaleRows(from: number, to: number, total: number): PendingRow[] {
  const rows: PendingRow[] = [];
  for (let k = from; k < to; k++) {
    const record = scaleRecord(scaleProof(k, total));
    rows.push({ row: toRow(record), topics: record.topics });
  }
  return rows;
}

/** Whether proof `k` is one of the sample the latency routes read (proofs of the big wallet). */
export const inSample = (k: number, wallet: string): boolean => wallet === BIG && k % 997 === 0;
