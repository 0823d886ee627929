/**
 * Micro-benchmark of the pure-domain helpers on the verify path, old (test/domain/protocol/
 * legacy-helpers.ts, the code before the rewrite) against new (src/domain/protocol), on the
 * ~2.5 KB envelopes the other benchmarks use. Run with `npx tsx bench/domain-helpers.ts`.
 *
 * Figures are µs per envelope: the median (and the fastest) of ROUNDS timed rounds, old and
 * new interleaved round by round so that load from other processes hits both alike. On a
 * shared machine the fastest round is the steadier figure of what the code itself costs.
 * Rows marked † are for reference and not on the verify path.
 */
import { loadavg } from 'node:os';
import { CanonicalJson } from '../src/domain/protocol/canonical.js';
import { parseRfc3339 } from '../src/domain/protocol/datetime.js';
import { bytesToHex, decodeBase64Strict, hexToBytes } from '../src/domain/protocol/encoding.js';
import type { ProofEnvelope } from '../src/domain/protocol/envelope.js';
import { DEFAULT_LIMITS, jsonDepth } from '../src/domain/protocol/limits.js';
import {
  legacyCanonicalPayloadText,
  legacyCanonicalText,
  legacyBytesToHex,
  legacyDecodeBase64Strict,
  legacyHexToBytes,
  legacyJsonDepth,
  legacyParseRfc3339,
} from '../test/domain/protocol/legacy-helpers.js';
import { anEnvelope, twoKilobyteEvents } from '../test/support/mothers.js';

const ENVELOPES = 64;
const ROUNDS = 15;
const MIN_ROUND_MS = 40;
const WARMUP_ROUNDS = 3;

const envelopes: ProofEnvelope[] = Array.from({ length: ENVELOPES }, (_, i) =>
  anEnvelope({ taskId: `task-${i}`, events: twoKilobyteEvents(undefined, i), seed: i % 16 }),
);
/** As a verifier receives them: parsed from JSON text, so no object is shared with the signer. */
const received = envelopes.map((e) => JSON.parse(JSON.stringify(e)) as ProofEnvelope);
const bytes = JSON.stringify(received[0]).length;

let sink: unknown;

/** µs per envelope of `work` over one round of `iterations` calls; `work(e)` does one envelope's worth. */
function measure(work: (e: ProofEnvelope) => unknown, iterations: number): number {
  const start = process.hrtime.bigint();
  for (let n = 0; n < iterations; n++) sink = work(received[n % ENVELOPES]!);
  return Number(process.hrtime.bigint() - start) / 1e3 / iterations;
}

/** Iterations for one round to last about MIN_ROUND_MS (found on a warm function). */
function calibrate(work: (e: ProofEnvelope) => unknown): number {
  let iterations = ENVELOPES;
  for (;;) {
    const us = measure(work, iterations);
    if (us * iterations >= MIN_ROUND_MS * 1e3) return iterations;
    iterations *= 2;
  }
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

interface Row {
  readonly name: string;
  readonly old: (e: ProofEnvelope) => unknown;
  readonly new: (e: ProofEnvelope) => unknown;
  /** Whether old and new results agree, where they are not of one kind; by default their JSON is compared. */
  readonly agree?: (oldResult: unknown, newResult: unknown) => boolean;
}

interface Figures {
  readonly oldUs: number;
  readonly newUs: number;
  readonly oldMin: number;
  readonly newMin: number;
}

function compare(row: Row): Figures {
  // Both must agree on every envelope before their speed means anything.
  for (const e of received) {
    const agree = row.agree ?? ((x, y) => JSON.stringify(toPlain(x)) === JSON.stringify(toPlain(y)));
    if (!agree(row.old(e), row.new(e))) throw new Error(`${row.name}: old and new disagree`);
  }
  // Warm up (JIT tiers, inline caches, the layout memo) before any round counts.
  for (let w = 0; w < WARMUP_ROUNDS; w++) {
    calibrate(row.old);
    calibrate(row.new);
  }
  const oldIterations = calibrate(row.old);
  const newIterations = calibrate(row.new);
  const oldUs: number[] = [];
  const newUs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    oldUs.push(measure(row.old, oldIterations));
    newUs.push(measure(row.new, newIterations));
  }
  return { oldUs: median(oldUs), newUs: median(newUs), oldMin: Math.min(...oldUs), newMin: Math.min(...newUs) };
}

const toPlain = (v: unknown): unknown => (v instanceof Uint8Array ? Array.from(v) : v);

const timestamps = (e: ProofEnvelope): string[] => [e.payload.created_at, ...e.payload.telemetry_normalized.events.map((x) => x.ts)];
const tsByEnvelope = new Map(received.map((e) => [e, timestamps(e)]));
const timestampCount = timestamps(received[0]!).length;

const parseAll =
  (parse: (text: string) => number | null) =>
  (e: ProofEnvelope): number => {
    let sum = 0;
    for (const ts of tsByEnvelope.get(e)!) sum += parse(ts)!;
    return sum;
  };

/**
 * A string built piece by piece is a tree that must be flattened before it can be hashed, and
 * the verifier hashes every canonical text it makes: reading one character in the middle
 * flattens it, so that cost is counted where it is caused, for old and new alike.
 */
const flat = (text: string | null): string | null => {
  if (text !== null) text.charCodeAt(text.length >> 1);
  return text;
};

const canonical = new CanonicalJson();
const decoder = new TextDecoder();

const rows: Row[] = [
  {
    name: 'canonical text of telemetry_normalized',
    old: (e) => flat(legacyCanonicalText(e.payload.telemetry_normalized)),
    new: (e) => flat(canonical.text(e.payload.telemetry_normalized)),
  },
  {
    name: 'canonical text of the payload †',
    old: (e) => flat(legacyCanonicalText(e.payload)),
    new: (e) => flat(canonical.text(e.payload)),
  },
  {
    // What checks 4 and 5 hash: the old texts (telemetry, then the payload reusing it) against the new bytes written once.
    name: 'canonical payload and telemetry (checks 4, 5)',
    old: (e) => {
      const telemetry = flat(legacyCanonicalText(e.payload.telemetry_normalized))!;
      return [telemetry, flat(legacyCanonicalPayloadText(e.payload as unknown as Record<string, unknown>, telemetry))];
    },
    new: (e) => canonical.payload(e.payload as unknown as Record<string, unknown>),
    agree: (o, n) => {
      const [telemetry, payload] = o as [string, string];
      const written = n as { bytes: Uint8Array; telemetry: Uint8Array };
      return decoder.decode(written.telemetry) === telemetry && decoder.decode(written.bytes) === payload;
    },
  },
  { name: `parseRfc3339 ×${timestampCount}`, old: parseAll(legacyParseRfc3339), new: parseAll(parseRfc3339) },
  {
    name: 'decodeBase64Strict ×2 (key, signature)',
    old: (e) => [legacyDecodeBase64Strict(e.signer_public_key_b64)!.length, legacyDecodeBase64Strict(e.signature_b64)!.length],
    new: (e) => [decodeBase64Strict(e.signer_public_key_b64)!.length, decodeBase64Strict(e.signature_b64)!.length],
  },
  {
    name: `jsonDepth(envelope, ${DEFAULT_LIMITS.maxDepth})`,
    old: (e) => legacyJsonDepth(e, DEFAULT_LIMITS.maxDepth),
    new: (e) => jsonDepth(e, DEFAULT_LIMITS.maxDepth),
  },
  {
    // Not on the verify path: API keys' hashes, proof ids and log leaves, on the request path.
    name: 'hexToBytes, bytesToHex of payload_hash †',
    old: (e) => legacyBytesToHex(legacyHexToBytes(e.payload.payload_hash)!),
    new: (e) => bytesToHex(hexToBytes(e.payload.payload_hash)!),
  },
  { name: 'jsonDepth(envelope) (no cap) †', old: (e) => legacyJsonDepth(e), new: (e) => jsonDepth(e) },
];

const cell = (us: number): string => us.toFixed(2).padStart(9);
const line = (name: string, f: Figures): string =>
  `${name.padEnd(46)} ${cell(f.oldUs)} ${cell(f.newUs)} ${`${(f.oldUs / f.newUs).toFixed(1)}×`.padStart(8)}   ` +
  `${cell(f.oldMin)} ${cell(f.newMin)} ${`${(f.oldMin / f.newMin).toFixed(1)}×`.padStart(8)}`;

console.log(
  `domain helpers on ${ENVELOPES} envelopes of ${bytes} bytes (${timestampCount} timestamps each), µs per envelope; ` +
    `load average ${loadavg()[0]!.toFixed(2)}`,
);
console.log(`${''.padEnd(46)} ${'median of'.padStart(9)} ${`${ROUNDS} rounds`.padEnd(19)}   ${'fastest'.padStart(9)} round`);
console.log(
  `${'helper'.padEnd(46)} ${'old'.padStart(9)} ${'new'.padStart(9)} ${'speed-up'.padStart(8)}   ${'old'.padStart(9)} ${'new'.padStart(9)} ${'speed-up'.padStart(8)}`,
);
const total = { oldUs: 0, newUs: 0, oldMin: 0, newMin: 0 };
for (const row of rows) {
  const f = compare(row);
  if (!row.name.endsWith('†')) {
    total.oldUs += f.oldUs;
    total.newUs += f.newUs;
    total.oldMin += f.oldMin;
    total.newMin += f.newMin;
  }
  console.log(line(row.name, f));
}
console.log(line('verify path total (rows without †)', total));

// A yardstick for this machine's speed: V8's own JSON.stringify of the same telemetry
// (insertion order, so not canonical text, but the same amount of writing).
const stringify = (e: ProofEnvelope): string => JSON.stringify(e.payload.telemetry_normalized);
for (let w = 0; w < WARMUP_ROUNDS; w++) calibrate(stringify);
const stringifyIterations = calibrate(stringify);
const stringifyUs = Array.from({ length: ROUNDS }, () => measure(stringify, stringifyIterations));
console.log(`yardstick: JSON.stringify(telemetry_normalized) ${median(stringifyUs).toFixed(2)} µs (fastest ${Math.min(...stringifyUs).toFixed(2)})`);
if (sink === Symbol.for('never')) console.log(sink);
