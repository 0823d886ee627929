import { createHash } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { pino } from 'pino';
import { migrateLatest, openDatabase, type Database } from '../src/adapters/sql/index.js';
import { loadConfig } from '../src/config.js';
import { TEST_POSTGRES_URL, uniqueSchemaName } from '../test/support/databases.js';
import { anEnvelope } from '../test/support/mothers.js';
import { authHeaders } from '../test/support/test-authenticator.js';

/**
 * GET /v1/fleet for one wallet with 5,000 devices and 200,000 proofs, through the real HTTP
 * app (Koa, Knex, the test authenticator in place of JWTs). The data is written with raw
 * multi-row inserts, consistent with what the proof writer would have produced (each device's
 * proof_count and last_seen match its proofs); the target is p99 < 200 ms.
 */
const DEVICES = 5_000;
const PROOFS = 200_000;
const GROUPS = 25;
const WARMUP = 20;
const REQUESTS = 200;
const WALLET = 'BenchFleetWallet1111111111111111111111111111';

export interface LatencyFigures {
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly bytes: number;
}

export interface FleetOverviewFigures {
  readonly dialect: 'sqlite' | 'postgres';
  readonly devices: number;
  readonly proofs: number;
  readonly seedSeconds: number;
  /** Default page (50 devices), every group, full summary. */
  readonly overview: LatencyFigures;
  readonly overviewLimit200: LatencyFigures;
  readonly overviewOffline: LatencyFigures;
  /** For information: the statistics route reads the proofs (counts over 200,000 of them). */
  readonly stats: LatencyFigures;
}

export async function benchFleetOverview(dialect: 'sqlite' | 'postgres'): Promise<FleetOverviewFigures> {
  const target = await prepareDatabase(dialect);
  try {
    const seedStart = process.hrtime.bigint();
    const seeding = await openDatabase(target.url);
    try {
      await migrateLatest(seeding);
      await seed(seeding, Date.now());
      // Planner statistics and (PostgreSQL) the visibility map, as autovacuum keeps them after a
      // bulk insert; without it, index-only scans of fresh rows still visit the heap.
      await seeding.knex.raw(seeding.dialect === 'postgres' ? 'vacuum analyze' : 'analyze');
    } finally {
      await seeding.close();
    }
    const seedSeconds = Number(process.hrtime.bigint() - seedStart) / 1e9;

    const config = loadConfig({ DATABASE_URL: target.url, PORT: '0', LOG_LEVEL: 'silent', DEVICE_ONLINE_WINDOW_S: '300', DEVICE_OFFLINE_AFTER_S: '3600' });
    // Loaded here, not with this module: `npm run bench` measures batch verification in its own
    // process before this, and a whole registry's modules loaded beside it changed that figure.
    const { startRegistry } = await import('../src/composition/root.js');
    const { inlineVerification, testAccess } = await import('../test/support/registry.js');
    const registry = await startRegistry(config, {
      logger: pino({ level: 'silent' }),
      overrides: [testAccess, inlineVerification],
    });
    try {
      const get = (p: string) => measure(registry.url + p);
      const overview = await get('/v1/fleet');
      const overviewLimit200 = await get('/v1/fleet?limit=200');
      const overviewOffline = await get('/v1/fleet?status=offline');
      const stats = await get(`/v1/stats/wallet/${WALLET}`);
      return { dialect, devices: DEVICES, proofs: PROOFS, seedSeconds: round(seedSeconds), overview, overviewLimit200, overviewOffline, stats };
    } finally {
      await registry.close();
    }
  } finally {
    await target.drop();
  }
}

async function measure(url: string): Promise<LatencyFigures> {
  const headers = authHeaders(WALLET);
  const times: number[] = [];
  let bytes = 0;
  for (let i = -WARMUP; i < REQUESTS; i++) {
    const start = process.hrtime.bigint();
    const res = await fetch(url, { headers });
    const text = await res.text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${text.slice(0, 200)}`);
    bytes = text.length;
    if (i >= 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => round(times[Math.min(times.length - 1, Math.ceil(q * times.length) - 1)]!);
  return { p50Ms: at(0.5), p99Ms: at(0.99), maxMs: round(times[times.length - 1]!), bytes };
}

/** Proofs spread over 30 days; devices last heard from over the last 2 hours (a mix of statuses). */
async function seed(db: Database, nowMs: number): Promise<void> {
  const envelope = anEnvelope({ taskId: 'bench', robotId: 'robot-0' });
  const envelopeText = JSON.stringify(envelope);
  const deviceId = (i: number) => `robot-${String(i).padStart(5, '0')}`;
  const lastSeen = (d: number) => nowMs - ((d * 7919) % 7200) * 1000;
  const counts = new Array<number>(DEVICES).fill(0);
  const chunk = db.dialect === 'sqlite' ? 500 : 1000;
  await db.knex.transaction(async (trx) => {
    await trx('wallets').insert({ address: WALLET }).onConflict('address').ignore();
    const [{ id: walletId }] = (await trx('wallets').select('id').where('address', WALLET)) as [{ id: number | string }];
    for (let start = 0; start < PROOFS; start += chunk) {
      const rows = [];
      for (let i = start; i < Math.min(PROOFS, start + chunk); i++) {
        const d = i % DEVICES;
        counts[d]!++;
        // The latest proof of each device is its last_seen; older ones go back up to 30 days.
        const received = i + DEVICES >= PROOFS ? lastSeen(d) : lastSeen(d) - 60_000 - ((i * 104_729) % (30 * 86_400_000));
        rows.push({
          wallet_id: walletId,
          wallet: WALLET,
          proof_id: createHash('sha256').update(`bench-${i}`).digest('hex'),
          task_id: `task-${i % 97}`,
          robot_id: deviceId(d),
          run_id: null,
          signer_public_key_b64: envelope.signer_public_key_b64,
          created_at: new Date(received - 1000).toISOString(),
          created_at_ms: received - 1000,
          received_at_ms: received,
          event_count: 2,
          topics: '["nav/pose","safety/state"]',
          search_text: `task-${i % 97}\n${deviceId(d)}`,
          envelope: envelopeText,
        });
      }
      await trx('proofs').insert(rows);
    }
    const groups = Array.from({ length: GROUPS }, (_, g) => ({
      wallet: WALLET,
      group_id: `grp_bench${String(g).padStart(3, '0')}`,
      name: `Site ${g}`,
      description: null,
      created_at_ms: nowMs,
    }));
    await trx('device_groups').insert(groups);
    for (let start = 0; start < DEVICES; start += 250) {
      const rows = [];
      for (let d = start; d < Math.min(DEVICES, start + 250); d++) {
        const report =
          d % 10 === 0 ? { status: d % 30 === 0 ? 'error' : d % 20 === 0 ? 'degraded' : 'ok', cpu_percent: d % 100, received_at_ms: lastSeen(d) } : null;
        rows.push({
          wallet: WALLET,
          device_id: deviceId(d),
          name: d % 3 === 0 ? `Robot ${d}` : null,
          // Most devices in a group, some in none.
          group_id: d % 8 === 7 ? null : groups[d % GROUPS]!.group_id,
          first_seen_ms: lastSeen(d) - 30 * 86_400_000,
          last_seen_ms: lastSeen(d),
          last_proof_at_ms: lastSeen(d),
          proof_count: counts[d]!,
          last_health: report
            ? JSON.stringify({
                wallet: WALLET,
                device_id: deviceId(d),
                memory_percent: null,
                battery_percent: null,
                temperature_c: null,
                uptime_s: null,
                message: null,
                metrics: null,
                ...report,
              })
            : null,
          last_health_status: report?.status ?? null,
          last_health_at_ms: report?.received_at_ms ?? null,
        });
      }
      await trx('devices').insert(rows);
    }
  });
}

/** A database of its own: a temporary SQLite file, or a PostgreSQL schema chosen by search_path. */
async function prepareDatabase(dialect: 'sqlite' | 'postgres'): Promise<{ url: string; drop(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const dir = await mkdtemp(path.join(tmpdir(), 'fleet-bench-'));
    return { url: `sqlite:${path.join(dir, 'registry.sqlite')}`, drop: () => rm(dir, { recursive: true, force: true }) };
  }
  const schema = uniqueSchemaName('fleet_bench');
  const admin = await openDatabase(TEST_POSTGRES_URL, { schema, poolSize: 1 });
  const url = new URL(TEST_POSTGRES_URL);
  url.searchParams.set('options', `-c search_path=${schema}`);
  return {
    url: url.toString(),
    drop: async () => {
      await admin.knex.raw('drop schema if exists ?? cascade', [schema]);
      await admin.close();
    },
  };
}

const round = (x: number) => Math.round(x * 100) / 100;

export function formatFleetOverview(f: FleetOverviewFigures): string {
  const line = (label: string, l: LatencyFigures) =>
    `  ${label.padEnd(34)} p50 ${l.p50Ms} ms, p99 ${l.p99Ms} ms, max ${l.maxMs} ms (${Math.round(l.bytes / 1024)} KB)`;
  return [
    `fleet overview on ${f.dialect}: ${f.devices} devices, ${f.proofs} proofs (seeded in ${f.seedSeconds} s), ${REQUESTS} sequential requests each`,
    line('GET /v1/fleet', f.overview),
    line('GET /v1/fleet?limit=200', f.overviewLimit200),
    line('GET /v1/fleet?status=offline', f.overviewOffline),
    line('GET /v1/stats/wallet/{addr}', f.stats),
    `  target p99 < 200 ms: ${f.overview.p99Ms < 200 ? 'met' : 'NOT met'}`,
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dialects = (process.argv[2] ?? 'sqlite,postgres').split(',') as Array<'sqlite' | 'postgres'>;
  for (const dialect of dialects) console.log(formatFleetOverview(await benchFleetOverview(dialect)));
}
