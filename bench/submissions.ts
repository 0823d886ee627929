import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { settle, startChildServer } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { load, type LoadFigures } from './http-load.js';
import { interleaved, type Contender, type CostedFigures } from './interleaved.js';
import { pacedLoad } from './paced-load.js';
import { createApiKey, dropPostgresDatabase, freshPostgresDatabase, fundWallet } from './provision.js';

/**
 * POST /v1/proofs on SQLite and PostgreSQL against two ceilings of this machine: a bare
 * node:http server that only parses and verifies (servers/ceiling-server.ts), and the same
 * plus a grouped, durable insert into the database the registry runs on
 * (servers/durable-ceiling-server.ts). Maximum rates in turns at each connection count, then
 * 500 req/s paced and in bursts.
 */
export interface SubmissionOptions {
  readonly durationS: number;
  /** Closed-loop client counts; the 500 req/s loads use the first. */
  readonly connectionCounts: readonly number[];
  readonly rounds: number;
}

const WARM_UP_S = 2;
const PG_BENCH_DB = 'proof_registry_bench';

async function quietMachine(before: string): Promise<void> {
  if (!(await settle())) console.warn(`warning: the machine was still busy before ${before}`);
}

/** The maximum rates at one number of connections, the registry's in turns with both ceilings'. */
interface MaxFigures {
  readonly connections: number;
  readonly max: CostedFigures;
  /** The ceiling's figures from the slices between the registry's. */
  readonly ceiling: CostedFigures;
  /** The durable ceiling's: the ceiling plus a grouped, durable insert into the registry's database. */
  readonly durable: CostedFigures;
  /** Each round's registry rate as a share of the ceiling's. */
  readonly roundRatios: readonly number[];
  /** Each round's registry rate as a share of the durable ceiling's. */
  readonly durableRatios: readonly number[];
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
 * turns with the ceiling's and the durable ceiling's (see interleaved.ts), then the two
 * 500 req/s loads. The durable ceiling writes to `durableUrl`, on the same database server or
 * disk as the registry, with the same SQLITE_SYNCHRONOUS.
 */
async function onDatabase(
  o: SubmissionOptions,
  databaseUrl: string,
  durableUrl: string,
  env: Record<string, string>,
  bodies: Bodies,
  ceiling: Contender,
): Promise<SubmitFigures> {
  const CONNECTIONS = o.connectionCounts[0]!;
  const { wallet, secretKey } = fundWallet(databaseUrl);
  const server = await startChildServer('./servers/registry-server.ts', {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MIN: '1000000',
    WALLET_RATE_LIMIT_PER_MIN: '1000000',
    ...env,
  });
  const durableServer = await startChildServer('./servers/durable-ceiling-server.ts', {
    DURABLE_DATABASE_URL: durableUrl,
    DURABLE_SYNCHRONOUS: process.env.SQLITE_SYNCHRONOUS ?? 'full',
  });
  try {
    await load({ url: durableServer.url, path: '/', headers: {}, bodies: bodies.warmUp, connections: CONNECTIONS, durationS: WARM_UP_S });
    const { key } = await createApiKey(server.url, wallet, secretKey);
    const headers = { authorization: `Bearer ${key}`, 'x-wallet-address': wallet };
    await load({ url: server.url, path: '/v1/proofs', headers, bodies: bodies.warmUp, connections: CONNECTIONS, durationS: WARM_UP_S });
    await quietMachine('the maximum rate');
    // One cursor through the bodies for every connection count: each body is sent once.
    const registry: Contender = { server, path: '/v1/proofs', headers, bodies: bodies.max, cursor: { next: 0 } };
    const durable: Contender = { server: durableServer, path: '/', headers: {}, bodies: bodies.max, cursor: { next: 0 } };
    const maxRates: MaxFigures[] = [];
    for (const connections of o.connectionCounts) {
      if (maxRates.length > 0) await quietMachine(`the maximum rate at ${connections} connections`);
      const turns = await interleaved([ceiling, registry, durable], { rounds: o.rounds, sliceS: o.durationS / o.rounds, connections });
      const durableRatios = turns.roundRates.map((rates) => rates[1]! / rates[2]!);
      maxRates.push({
        connections,
        ceiling: turns.figures[0]!,
        max: turns.figures[1]!,
        durable: turns.figures[2]!,
        roundRatios: turns.roundRatios,
        durableRatios,
      });
    }
    await quietMachine('500 req/s');
    const at500 = await pacedLoad({
      url: server.url,
      path: '/v1/proofs',
      headers,
      bodies: bodies.paced,
      connections: CONNECTIONS,
      durationS: o.durationS,
      rate: 500,
    });
    const at500Bursts = await load({
      url: server.url,
      path: '/v1/proofs',
      headers,
      bodies: bodies.bursts,
      connections: CONNECTIONS,
      durationS: o.durationS,
      rate: 500,
    });
    return { maxRates, at500, at500Bursts };
  } finally {
    await server.stop();
    await durableServer.stop();
  }
}

export interface SubmissionFigures {
  readonly sqlite: SubmitFigures;
  readonly postgres: SubmitFigures;
}

export async function benchSubmissions(o: SubmissionOptions): Promise<SubmissionFigures> {
  const CONNECTIONS = o.connectionCounts[0]!;
  const maxCount = Math.ceil(o.durationS * 8_000) * o.connectionCounts.length;
  // In created_at order: each server takes them warm-up, max, paced, bursts, into a fresh database.
  const bodies: Bodies = {
    warmUp: fleetProofBodies(WARM_UP_S * 8_000, 'bench-warm-up'),
    max: fleetProofBodies(maxCount, 'bench-max'),
    paced: fleetProofBodies(o.durationS * 500, 'bench-paced'),
    bursts: fleetProofBodies(o.durationS * 520, 'bench-bursts'),
  };
  // One ceiling server for the whole run, warmed up like the registry, measured in turns with it.
  const ceilingServer = await startChildServer('./servers/ceiling-server.ts');
  const ceiling: Contender = { server: ceilingServer, path: '/', headers: {}, bodies: bodies.max, reuseBodies: true };
  try {
    await load({ url: ceilingServer.url, path: '/', headers: {}, bodies: bodies.warmUp, reuseBodies: true, connections: CONNECTIONS, durationS: WARM_UP_S });
    const dir = mkdtempSync(join(tmpdir(), 'registry-bench-'));
    let sqlite: SubmitFigures;
    try {
      await quietMachine('the SQLite runs');
      sqlite = await onDatabase(
        o,
        `sqlite:${join(dir, 'registry.sqlite')}`,
        `sqlite:${join(dir, 'durable-ceiling.sqlite')}`,
        { DATA_DIR: dir },
        bodies,
        ceiling,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    const postgresUrl = await freshPostgresDatabase(PG_BENCH_DB);
    await quietMachine('the PostgreSQL runs');
    const postgres = await onDatabase(o, postgresUrl, postgresUrl, { JWT_SECRET: 'bench-secret-bench-secret-bench-secret!' }, bodies, ceiling);
    await dropPostgresDatabase(PG_BENCH_DB);
    return { sqlite, postgres };
  } finally {
    await ceilingServer.stop();
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (a: number, b: number, digits = 0) => `${fmt((100 * a) / b, digits)}%`;

export function printSubmissions({ sqlite, postgres }: SubmissionFigures, o: SubmissionOptions): void {
  const CONNECTIONS = o.connectionCounts[0]!;
  const cost = (f: LoadFigures | CostedFigures) =>
    'loadCpuUs' in f
      ? `${f.serverCpuUs === null ? 'n/a' : fmt(f.serverCpuUs)} | ${fmt(f.loadCpuUs)} | ${f.machineBusy === null ? 'n/a' : pct(f.machineBusy, 1)}`
      : ' | | ';
  const row = (name: string, f: LoadFigures | CostedFigures, note = '', durableNote = '') =>
    `| ${name} | ${fmt(f.requestsPerSec)} | ${fmt(f.p50Ms, 1)} | ${fmt(f.p99Ms, 1)} | ${f.non2xx + f.errors} | ${note} | ${durableNote} | ${cost(f)} |`;
  console.log(
    '\n| POST /v1/proofs (2 KB proofs) | req/s | p50 ms | p99 ms | non-2xx+errors | vs ceiling | vs durable ceiling | server CPU µs/req | load generator CPU µs/req | machine busy |',
  );
  console.log('| --- | ---: | ---: | ---: | ---: | --- | --- | ---: | ---: | ---: |');
  const spread = (ratios: readonly number[]) => `${pct(Math.min(...ratios), 1)}–${pct(Math.max(...ratios), 1)}`;
  for (const [name, f] of [
    ['SQLite', sqlite],
    ['PostgreSQL', postgres],
  ] as const) {
    for (const m of f.maxRates) {
      console.log(row(`ceiling: bare node:http, parse + verify, ${m.connections} connections, in turns with ${name}`, m.ceiling, '100%'));
      console.log(
        row(
          `durable ceiling: the ceiling + grouped insert into ${name}, ${m.connections} connections`,
          m.durable,
          pct(m.durable.requestsPerSec, m.ceiling.requestsPerSec, 1),
          '100%',
        ),
      );
      console.log(
        row(
          `registry on ${name}, max rate, ${m.connections} connections`,
          m.max,
          pct(m.max.requestsPerSec, m.ceiling.requestsPerSec, 1),
          pct(m.max.requestsPerSec, m.durable.requestsPerSec, 1),
        ),
      );
    }
    console.log(row(`registry on ${name}, 500 req/s, one every 2 ms`, f.at500));
    console.log(row(`registry on ${name}, 500 req/s in bursts (autocannon)`, f.at500Bursts));
  }
  console.log(
    '\n500 req/s "one every 2 ms" is an open-loop load: each request is due at its time, and its latency runs from then. ' +
      `"In bursts" is autocannon's rate: each of the ${CONNECTIONS} connections sends its share of the second back to back as the second starts, so the server sees ${CONNECTIONS} clients at full speed for part of every second.`,
  );
  console.log(
    `\nMaximum rates are measured in turns: ${o.rounds} rounds of ${fmt(o.durationS / o.rounds, 1)} s for each server at each connection count, each idle while another runs, ` +
      "so that all see the same machine (its speed drifts within minutes). Each ratio is against the other server's slices of the same rounds.",
  );
  console.log(
    '\n| maximum rate, each server at its best connection count | registry req/s | ceiling req/s | durable ceiling req/s | vs ceiling | vs durable ceiling | ' +
      "rounds at the registry's best count, vs each | p99 ms registry / durable ceiling |",
  );
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |');
  for (const [name, f] of [
    ['SQLite', sqlite],
    ['PostgreSQL', postgres],
  ] as const) {
    const best = (pick: (m: MaxFigures) => CostedFigures) => f.maxRates.reduce((a, b) => (pick(b).requestsPerSec > pick(a).requestsPerSec ? b : a));
    const registryBest = best((m) => m.max);
    const ceilingBest = best((m) => m.ceiling);
    const durableBest = best((m) => m.durable);
    const at = (m: MaxFigures) => `(${m.connections} connections)`;
    console.log(
      `| ${name} | ${fmt(registryBest.max.requestsPerSec)} ${at(registryBest)} | ${fmt(ceilingBest.ceiling.requestsPerSec)} ${at(ceilingBest)} | ${fmt(durableBest.durable.requestsPerSec)} ${at(durableBest)} | ` +
        `${pct(registryBest.max.requestsPerSec, ceilingBest.ceiling.requestsPerSec, 1)} | ${pct(registryBest.max.requestsPerSec, durableBest.durable.requestsPerSec, 1)} | ` +
        `${spread(registryBest.roundRatios)}; ${spread(registryBest.durableRatios)} | ${fmt(registryBest.max.p99Ms, 1)} / ${fmt(durableBest.durable.p99Ms, 1)} |`,
    );
  }
  console.log(
    '\nCPU per request at the maximum rate: the server process (all its threads, not the PostgreSQL processes) and this process (autocannon); machine busy counts everything, on all cores.',
  );
}
