import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { benchBatchVerify } from './batch-verify.js';
import { settle, startChildServer } from './child-server.js';
import { benchFleetOverview } from './fleet-overview.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { load, type LoadFigures } from './http-load.js';
import { interleaved, type Contender, type CostedFigures } from './interleaved.js';
import { benchLog } from './log.js';
import { pacedLoad } from './paced-load.js';
import { createApiKey, dropPostgresDatabase as dropDatabase, freshPostgresDatabase as freshDatabase, fundWallet } from './provision.js';
import { benchReadersAndWriters, printReadersAndWriters } from './readers-and-writers.js';
import { benchTwoInstances, type TwoInstanceFigures } from './two-instances.js';
import { benchWebhooks, printWebhooks, webhookOptionsFromEnv } from './webhooks.js';

/**
 * `npm run bench`: submission throughput and latency of POST /v1/proofs on SQLite and
 * PostgreSQL against the ceiling of this machine (a bare node:http server that only parses and
 * verifies), batch verification against raw Ed25519, the fleet overview at 5,000 devices, and
 * what a webhook endpoint costs the submissions and how late its deliveries arrive.
 * Servers run in their own process; autocannon drives them from this one.
 */
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
/**
 * Clients of the closed-loop loads (autocannon connections, each sending its next request as
 * the answer to the last arrives). The maximum rate is measured at each count, both servers at
 * the same count, and a server's maximum is its best of them: a server whose requests pass
 * through several threads has more of them in flight at its best than a one-thread server
 * does. The 500 req/s loads use the first.
 */
const CONNECTION_COUNTS = (process.env.BENCH_CONNECTIONS ?? '32,64').split(',').map(Number);
const CONNECTIONS = CONNECTION_COUNTS[0]!;
/** Maximum-rate rounds: each gives the ceiling and the registry DURATION_S / ROUNDS seconds each. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const WARM_UP_S = 2;
const PG_BENCH_DB = 'proof_registry_bench';

const freshPostgresDatabase = () => freshDatabase(PG_BENCH_DB);
const dropPostgresDatabase = () => dropDatabase(PG_BENCH_DB);

/** Before each measurement: the previous one's aftermath must not be measured in it. */
async function quietMachine(before: string): Promise<void> {
  if (!(await settle())) console.warn(`warning: the machine was still busy before ${before}`);
}

/** The maximum rates at one number of connections, the registry's in turns with the ceiling's. */
interface MaxFigures {
  readonly connections: number;
  readonly max: CostedFigures;
  /** The ceiling's figures from the slices between the registry's. */
  readonly ceiling: CostedFigures;
  /** Each round's registry rate as a share of the ceiling's. */
  readonly roundRatios: readonly number[];
}

interface SubmitFigures {
  /** One per connection count, in CONNECTION_COUNTS order. */
  readonly maxRates: readonly MaxFigures[];
  /** 500 requests a second, one every 2 ms (open loop). */
  readonly at500: LoadFigures;
  /** autocannon's rate of 500 a second: each connection's share sent back to back as each second starts. */
  readonly at500Bursts: LoadFigures;
}

interface Bodies {
  readonly warmUp: string[];
  readonly max: string[];
  readonly paced: string[];
  readonly bursts: string[];
}

/**
 * The registry on one database: after a warm-up, its maximum rate at each connection count in
 * turns with the ceiling's (see interleaved.ts), then the two 500 req/s loads.
 */
async function benchSubmissions(databaseUrl: string, env: Record<string, string>, bodies: Bodies, ceiling: Contender): Promise<SubmitFigures> {
  const { wallet, secretKey } = fundWallet(databaseUrl);
  const server = await startChildServer('./servers/registry-server.ts', { DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn', RATE_LIMIT_PER_MIN: '1000000', WALLET_RATE_LIMIT_PER_MIN: '1000000', ...env });
  try {
    const { key } = await createApiKey(server.url, wallet, secretKey);
    const headers = { authorization: `Bearer ${key}`, 'x-wallet-address': wallet };
    await load({ url: server.url, path: '/v1/proofs', headers, bodies: bodies.warmUp, connections: CONNECTIONS, durationS: WARM_UP_S });
    await quietMachine('the maximum rate');
    // One cursor through the bodies for every connection count: each body is sent once.
    const registry: Contender = { server, path: '/v1/proofs', headers, bodies: bodies.max, cursor: { next: 0 } };
    const maxRates: MaxFigures[] = [];
    for (const connections of CONNECTION_COUNTS) {
      if (maxRates.length > 0) await quietMachine(`the maximum rate at ${connections} connections`);
      const turns = await interleaved([ceiling, registry], { rounds: ROUNDS, sliceS: DURATION_S / ROUNDS, connections });
      maxRates.push({ connections, ceiling: turns.figures[0]!, max: turns.figures[1]!, roundRatios: turns.roundRatios });
    }
    await quietMachine('500 req/s');
    const at500 = await pacedLoad({ url: server.url, path: '/v1/proofs', headers, bodies: bodies.paced, connections: CONNECTIONS, durationS: DURATION_S, rate: 500 });
    const at500Bursts = await load({ url: server.url, path: '/v1/proofs', headers, bodies: bodies.bursts, connections: CONNECTIONS, durationS: DURATION_S, rate: 500 });
    return { maxRates, at500, at500Bursts };
  } finally {
    await server.stop();
  }
}

function printTwoInstances(two: TwoInstanceFigures): void {
  console.log(`\n| two registry instances on one PostgreSQL (Redis ${two.redis ?? 'none'}), ${CONNECTIONS} connections each, at once | req/s | p50 ms | p99 ms | non-2xx+errors |`);
  console.log('| --- | ---: | ---: | ---: | ---: |');
  two.instances.forEach((f, i) => console.log(`| instance ${i + 1} | ${fmt(f.requestsPerSec)} | ${fmt(f.p50Ms, 1)} | ${fmt(f.p99Ms, 1)} | ${f.non2xx + f.errors} |`));
  console.log(`| both | ${fmt(two.aggregatePerSec)} | | | |`);
  console.log(`\nAfter the run: ${fmt(two.acknowledged)} proofs acknowledged, ${fmt(two.stored)} rows stored for the wallet, ${two.missing} acknowledged and missing, ${two.duplicates} stored twice.`);
  if (two.missing > 0 || two.duplicates > 0) throw new Error('two instances: an acknowledged proof is missing or stored twice');
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (a: number, b: number, digits = 0) => `${fmt((100 * a) / b, digits)}%`;

async function main(): Promise<void> {
  console.log(`machine: ${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, Node ${process.version}; ${DURATION_S} s per run, maximum rates at ${CONNECTION_COUNTS.join(' and ')} connections`);
  // First, before this process holds the HTTP runs' request bodies and autocannon's state:
  // the pool's main thread is this process's, and it checks every envelope up to its signature.
  await quietMachine('batch verification');
  const batch = await benchBatchVerify();

  const maxCount = Math.ceil(DURATION_S * 8_000) * CONNECTION_COUNTS.length;
  // In created_at order: each server takes them warm-up, max, paced, bursts, into a fresh database.
  const bodies: Bodies = {
    warmUp: fleetProofBodies(WARM_UP_S * 8_000, 'bench-warm-up'),
    max: fleetProofBodies(maxCount, 'bench-max'),
    paced: fleetProofBodies(DURATION_S * 500, 'bench-paced'),
    bursts: fleetProofBodies(DURATION_S * 520, 'bench-bursts'),
  };

  // One ceiling server for the whole run, warmed up like the registry, measured in turns with it.
  const ceilingServer = await startChildServer('./servers/ceiling-server.ts');
  const ceiling: Contender = { server: ceilingServer, path: '/', headers: {}, bodies: bodies.max, reuseBodies: true };
  let sqlite: SubmitFigures;
  let postgres: SubmitFigures;
  try {
    await load({ url: ceilingServer.url, path: '/', headers: {}, bodies: bodies.warmUp, reuseBodies: true, connections: CONNECTIONS, durationS: WARM_UP_S });
    const dir = mkdtempSync(join(tmpdir(), 'registry-bench-'));
    try {
      await quietMachine('the SQLite runs');
      sqlite = await benchSubmissions(`sqlite:${join(dir, 'registry.sqlite')}`, { DATA_DIR: dir }, bodies, ceiling);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const postgresUrl = await freshPostgresDatabase();
    await quietMachine('the PostgreSQL runs');
    postgres = await benchSubmissions(postgresUrl, { JWT_SECRET: 'bench-secret-bench-secret-bench-secret!' }, bodies, ceiling);
    await dropPostgresDatabase();
  } finally {
    await ceilingServer.stop();
  }

  // Two instances on one PostgreSQL database, at once, each with its own proofs.
  const twoBodies = [fleetProofBodies(DURATION_S * 5_000, 'bench-two-a'), fleetProofBodies(DURATION_S * 5_000, 'bench-two-b')] as const;
  const twoUrl = await freshPostgresDatabase();
  await quietMachine('two instances on PostgreSQL');
  const two = await benchTwoInstances(twoUrl, [twoBodies[0], twoBodies[1]], CONNECTIONS, DURATION_S);
  await dropPostgresDatabase();
  printTwoInstances(two);

  await quietMachine('the transparency log');
  // Printed here, before the tables below: log on and off in turns, inclusion proofs at 1,000,000 leaves, checkpoint latency.
  await benchLog({ rounds: ROUNDS, sliceS: DURATION_S / ROUNDS, connections: CONNECTIONS, treeSize: 1_000_000 });

  await quietMachine('PostgreSQL writes beside readers');
  const readersAndWriters = await benchReadersAndWriters();

  const fleetSqlite = await benchFleetOverview('sqlite');
  const fleetPostgres = await benchFleetOverview('postgres');

  // Submissions with one webhook endpoint against none, in turns, and the deliveries' latency at 500/s.
  const webhookOptions = webhookOptionsFromEnv();
  await quietMachine('events and webhooks');
  const webhooks = await benchWebhooks(webhookOptions);

  const cost = (f: LoadFigures | CostedFigures) =>
    'loadCpuUs' in f
      ? `${f.serverCpuUs === null ? 'n/a' : fmt(f.serverCpuUs)} | ${fmt(f.loadCpuUs)} | ${f.machineBusy === null ? 'n/a' : pct(f.machineBusy, 1)}`
      : ' | | ';
  const row = (name: string, f: LoadFigures | CostedFigures, note = '') =>
    `| ${name} | ${fmt(f.requestsPerSec)} | ${fmt(f.p50Ms, 1)} | ${fmt(f.p99Ms, 1)} | ${f.non2xx + f.errors} | ${note} | ${cost(f)} |`;
  console.log('\n| POST /v1/proofs (2 KB proofs) | req/s | p50 ms | p99 ms | non-2xx+errors | vs ceiling | server CPU µs/req | load generator CPU µs/req | machine busy |');
  console.log('| --- | ---: | ---: | ---: | ---: | --- | ---: | ---: | ---: |');
  const spread = (ratios: readonly number[]) => `${pct(Math.min(...ratios), 1)}–${pct(Math.max(...ratios), 1)}`;
  for (const [name, f] of [['SQLite', sqlite], ['PostgreSQL', postgres]] as const) {
    for (const m of f.maxRates) {
      console.log(row(`ceiling: bare node:http, parse + verify, ${m.connections} connections, in turns with ${name}`, m.ceiling, '100%'));
      console.log(row(`registry on ${name}, max rate, ${m.connections} connections`, m.max, pct(m.max.requestsPerSec, m.ceiling.requestsPerSec, 1)));
    }
    console.log(row(`registry on ${name}, 500 req/s, one every 2 ms`, f.at500));
    console.log(row(`registry on ${name}, 500 req/s in bursts (autocannon)`, f.at500Bursts));
  }
  console.log(
    '\n500 req/s "one every 2 ms" is an open-loop load: each request is due at its time, and its latency runs from then. ' +
      `"In bursts" is autocannon's rate: each of the ${CONNECTIONS} connections sends its share of the second back to back as the second starts, so the server sees ${CONNECTIONS} clients at full speed for part of every second.`,
  );
  console.log(
    `\nMaximum rates are measured in turns: ${ROUNDS} rounds of ${fmt(DURATION_S / ROUNDS, 1)} s for the ceiling and ${fmt(DURATION_S / ROUNDS, 1)} s for the registry at each connection count, each idle while the other runs, ` +
      'so that both see the same machine (its speed drifts within minutes). Each ratio is against the ceiling\'s slices of the same rounds.',
  );
  console.log('\n| maximum rate, each server at its best connection count | registry req/s | ceiling req/s | vs ceiling | rounds at the registry\'s best count |');
  console.log('| --- | ---: | ---: | ---: | --- |');
  for (const [name, f] of [['SQLite', sqlite], ['PostgreSQL', postgres]] as const) {
    const best = (pick: (m: MaxFigures) => CostedFigures) => f.maxRates.reduce((a, b) => (pick(b).requestsPerSec > pick(a).requestsPerSec ? b : a));
    const registryBest = best((m) => m.max);
    const ceilingBest = best((m) => m.ceiling);
    console.log(
      `| ${name} | ${fmt(registryBest.max.requestsPerSec)} (${registryBest.connections} connections) | ${fmt(ceilingBest.ceiling.requestsPerSec)} (${ceilingBest.connections} connections) | ` +
        `${pct(registryBest.max.requestsPerSec, ceilingBest.ceiling.requestsPerSec, 1)} | ${spread(registryBest.roundRatios)} |`,
    );
  }
  console.log('\nCPU per request at the maximum rate: the server process (all its threads, not the PostgreSQL processes) and this process (autocannon); machine busy counts everything, on all cores.');
  printReadersAndWriters(readersAndWriters);
  console.log('\n| batch verify (1,000 × 2 KB) | envelopes/s | vs raw Ed25519 |');
  console.log('| --- | ---: | --- |');
  console.log(`| raw node:crypto Ed25519 verify, all cores | ${fmt(batch.rawVerifyPerSec)} | 100% |`);
  console.log(`| raw libsodium Ed25519 verify, all cores | ${fmt(batch.rawSodiumPerSec)} | ${pct(batch.rawSodiumPerSec, batch.rawVerifyPerSec)} |`);
  console.log(`| inline (one thread) | ${fmt(batch.inlinePerSec)} | ${pct(batch.inlinePerSec, batch.rawVerifyPerSec)} |`);
  console.log(`| worker pool (all cores) | ${fmt(batch.poolPerSec)} | ${pct(batch.poolPerSec, batch.rawVerifyPerSec)} |`);
  console.log('\n| GET /v1/fleet, 5,000 devices, 200,000 proofs | p50 ms | p99 ms |');
  console.log('| --- | ---: | ---: |');
  for (const [name, f] of [['SQLite', fleetSqlite], ['PostgreSQL', fleetPostgres]] as const) {
    const o = f.overview;
    console.log(`| ${name} | ${fmt(o.p50Ms, 1)} | ${fmt(o.p99Ms, 1)} |`);
  }
  printWebhooks(webhooks, webhookOptions);
}

await main();
