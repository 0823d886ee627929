import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import bs58 from 'bs58';
import nacl from 'tweetnacl';
import { processCpuSeconds, settle, startChildServer, type ChildServer } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { load } from './http-load.js';
import { interleaved, type Contender, type CostedFigures } from './interleaved.js';
import { adminQueries, createApiKey, PG_ADMIN_URL } from './provision.js';

/**
 * Two checkouts of the registry (two commits, or a change and the code before it) at their
 * maximum rate of POST /v1/proofs in turns, each with its own database:
 *
 *   VERSIONS=/work/wt/a,/work/wt/b DB=postgres npx tsx bench/versions.ts
 *
 * ENV_A and ENV_B add settings to one server only (`ENV_B="LOG_ENABLED=false"`, with the same
 * checkout twice, measures what a setting costs). Each server is the checkout's own `bench/servers/registry-server.ts`, run from that
 * checkout (its code, its migrations, its CLI to fund the wallet). On a machine that others
 * use, rates swing with their load; CPU per request of the server process (all threads) moves
 * much less, so the table gives both, round by round. A server also spends CPU while idle (timers,
 * the log's checkpoints, metrics), which at a low rate weighs on each request: that rate is
 * measured before the rounds and taken out ("marginal"). Run both orders (A,B then B,A): on
 * the busy machine of 2026-11-25 the second checkout was ahead in every round either way. On PostgreSQL the CPU of the
 * database's own processes serving the bench database is given too. PROFILE_DIR=dir writes a CPU profile
 * of each server's threads into dir/<checkout> (`--cpu-prof`), summed by `bench/profile-summary.ts`.
 */
const VERSIONS = (process.env.VERSIONS ?? '')
  .split(',')
  .filter((v) => v !== '')
  .map((v) => resolve(v));
const DB = process.env.DB ?? 'sqlite';
const ROUNDS = Number(process.env.ROUNDS ?? 6);
const SLICE_S = Number(process.env.SLICE_S ?? 3);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 64);
const WARM_UP_S = Number(process.env.WARM_UP_S ?? 3);
const PROFILE_DIR = process.env.PROFILE_DIR;
/** Settings of one server only, as `NAME=value NAME=value`. */
const ONE_SERVER_ENV = [process.env.ENV_A, process.env.ENV_B].map((text) =>
  Object.fromEntries(
    (text ?? '')
      .split(' ')
      .filter((pair) => pair.includes('='))
      .map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  ),
);

if (VERSIONS.length !== 2) throw new Error('VERSIONS must name two checkouts, comma-separated');
if (DB !== 'sqlite' && DB !== 'postgres') throw new Error('DB is sqlite or postgres');

/** A wallet with tokens on the checkout's own local ledger, set through its own CLI. */
function fundWallet(dir: string, databaseUrl: string): { wallet: string; secretKey: Uint8Array } {
  const pair = nacl.sign.keyPair();
  const wallet = bs58.encode(pair.publicKey);
  execFileSync(process.execPath, ['bin/proof-registry.js', 'ledger', 'set', wallet, '50000'], {
    cwd: dir,
    env: { ...process.env, DATABASE_URL: databaseUrl, PROOF_REGISTRY_FROM_SOURCE: '1' },
    stdio: 'ignore',
  });
  return { wallet, secretKey: pair.secretKey };
}

/** CPU seconds of the PostgreSQL processes serving `database` (their titles name it); 0 on SQLite. */
function databaseCpuSeconds(database: string | null): number {
  if (database === null) return 0;
  let seconds = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const title = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (title.startsWith('postgres: ') && title.includes(` ${database} `)) seconds += processCpuSeconds(Number(entry)) ?? 0;
    } catch {
      // The process ended meanwhile.
    }
  }
  return seconds;
}

interface Version {
  readonly label: string;
  /** The PostgreSQL database it writes to (null on SQLite). */
  readonly database: string | null;
  /** CPU seconds a second the server spends while no request comes, measured before the rounds. */
  idleCpu: number;
  readonly server: ChildServer;
  readonly contender: Contender;
  readonly cleanUp: () => Promise<void>;
}

async function startVersion(dir: string, k: number, bodies: readonly string[]): Promise<Version> {
  const label = `${k}-${basename(dir)}`;
  let databaseUrl: string;
  let cleanUp: () => Promise<void>;
  let database: string | null = null;
  const env: Record<string, string> = { LOG_LEVEL: 'warn', RATE_LIMIT_PER_MIN: '1000000', WALLET_RATE_LIMIT_PER_MIN: '1000000', ...ONE_SERVER_ENV[k] };
  if (DB === 'sqlite') {
    const dataDir = mkdtempSync(join(tmpdir(), 'registry-versions-'));
    databaseUrl = `sqlite:${join(dataDir, 'registry.sqlite')}`;
    env.DATA_DIR = dataDir;
    cleanUp = () => Promise.resolve(rmSync(dataDir, { recursive: true, force: true }));
  } else {
    const name = `proof_registry_versions_${k}`;
    database = name;
    await adminQueries(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `CREATE DATABASE ${name}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${name}`;
    databaseUrl = url.toString();
    env.JWT_SECRET = 'bench-secret-bench-secret-bench-secret!';
    cleanUp = () => adminQueries(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }
  const { wallet, secretKey } = fundWallet(dir, databaseUrl);
  const previousArgs = process.env.BENCH_NODE_ARGS;
  if (PROFILE_DIR) process.env.BENCH_NODE_ARGS = `${previousArgs ?? ''} --cpu-prof --cpu-prof-dir=${resolve(PROFILE_DIR, label)}`;
  const server = await startChildServer(join(dir, 'bench/servers/registry-server.ts'), { DATABASE_URL: databaseUrl, ...env }, dir);
  if (PROFILE_DIR && previousArgs === undefined) delete process.env.BENCH_NODE_ARGS;
  else if (PROFILE_DIR) process.env.BENCH_NODE_ARGS = previousArgs;
  const { key } = await createApiKey(server.url, wallet, secretKey);
  const headers = { authorization: `Bearer ${key}`, 'x-wallet-address': wallet };
  const contender: Contender = { server, path: '/v1/proofs', headers, bodies, cursor: { next: 0 } };
  await load({ url: server.url, path: '/v1/proofs', headers, bodies, cursor: contender.cursor, connections: CONNECTIONS, durationS: WARM_UP_S });
  return { label, database, idleCpu: 0, server, contender, cleanUp };
}

const fmt = (n: number | null, digits = 0) =>
  n === null ? 'n/a' : n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

async function main(): Promise<void> {
  const versions: Version[] = [];
  try {
    // The same proofs for both, each into its own database.
    const bodies = fleetProofBodies(Math.ceil((WARM_UP_S + ROUNDS * SLICE_S) * 5_000), 'versions');
    for (const [k, dir] of VERSIONS.entries()) versions.push(await startVersion(dir, k, bodies));
    const [a, b] = versions as [Version, Version];
    // Both idle over the same seconds, once the warm-up's aftermath (e.g. the log catching up) is over.
    await settle(0.15, 3_000);
    await new Promise((done) => setTimeout(done, 2_000));
    const idle0 = versions.map((v) => v.server.cpuSeconds() ?? 0);
    await new Promise((done) => setTimeout(done, 4_000));
    versions.forEach((v, i) => (v.idleCpu = ((v.server.cpuSeconds() ?? 0) - idle0[i]!) / 4));
    const marginal = (v: Version, f: CostedFigures) => (f.serverCpuUs === null ? null : f.serverCpuUs - (v.idleCpu * 1e6) / f.requestsPerSec);
    console.log(`${DB}, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SLICE_S} s each, in turns (A then B, B then A, …)`);
    console.log(`A = ${VERSIONS[0]} ${process.env.ENV_A ?? ''}\nB = ${VERSIONS[1]} ${process.env.ENV_B ?? ''}`);
    console.log(`idle server CPU: A ${fmt(a.idleCpu * 1000, 1)} ms/s, B ${fmt(b.idleCpu * 1000, 1)} ms/s\n`);
    console.log(
      '| round | A req/s | B req/s | A server CPU µs/req | B server CPU µs/req | A marginal | B marginal | B/A marginal | A database CPU µs/req | B database CPU µs/req | A non-2xx | B non-2xx |',
    );
    console.log('| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    const all: CostedFigures[][] = [[], []];
    const marginals: number[][] = [[], []];
    const databaseUs: number[][] = [[], []];
    for (let round = 0; round < ROUNDS; round++) {
      const pair: [Contender, Contender] = round % 2 === 0 ? [a.contender, b.contender] : [b.contender, a.contender];
      const db0 = [databaseCpuSeconds(a.database), databaseCpuSeconds(b.database)];
      const turn = await interleaved(pair, { rounds: 1, sliceS: SLICE_S, connections: CONNECTIONS, settleMaxMs: 1_000 });
      const [fa, fb] = round % 2 === 0 ? [turn.figures[0]!, turn.figures[1]!] : [turn.figures[1]!, turn.figures[0]!];
      const dbUs = [
        (1e6 * (databaseCpuSeconds(a.database) - db0[0]!)) / Math.max(1, fa.total),
        (1e6 * (databaseCpuSeconds(b.database) - db0[1]!)) / Math.max(1, fb.total),
      ];
      const [ma, mb] = [marginal(a, fa), marginal(b, fb)];
      all[0]!.push(fa);
      all[1]!.push(fb);
      marginals[0]!.push(ma ?? NaN);
      marginals[1]!.push(mb ?? NaN);
      databaseUs[0]!.push(dbUs[0]!);
      databaseUs[1]!.push(dbUs[1]!);
      const ratio = ma && mb ? `${fmt((100 * mb) / ma, 1)}%` : 'n/a';
      console.log(
        `| ${round + 1} | ${fmt(fa.requestsPerSec)} | ${fmt(fb.requestsPerSec)} | ${fmt(fa.serverCpuUs)} | ${fmt(fb.serverCpuUs)} | ${fmt(ma)} | ${fmt(mb)} | ${ratio} | ` +
          `${a.database ? fmt(dbUs[0]!) : '-'} | ${b.database ? fmt(dbUs[1]!) : '-'} | ${fa.non2xx + fa.errors} | ${fb.non2xx + fb.errors} |`,
      );
    }
    const sum = (fs: CostedFigures[]) => {
      const requests = fs.reduce((s, f) => s + f.total, 0);
      const cpuUs = fs.reduce((s, f) => s + (f.serverCpuUs ?? NaN) * f.total, 0) / requests;
      const sorted = fs.map((f) => f.serverCpuUs ?? NaN).sort((x, y) => x - y);
      return { requests, cpuUs, median: sorted[Math.floor(sorted.length / 2)]!, rate: fs.reduce((s, f) => s + f.requestsPerSec, 0) / fs.length };
    };
    const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
    const sa = sum(all[0]!);
    const sb = sum(all[1]!);
    const [mA, mB] = [median(marginals[0]!), median(marginals[1]!)];
    const ahead = marginals[0]!.filter((m, i) => marginals[1]![i]! < m).length;
    console.log(
      `\nA: ${fmt(sa.rate)} req/s on average, ${fmt(sa.cpuUs)} µs/req over all rounds (median of rounds ${fmt(sa.median)}, marginal ${fmt(mA)}${a.database ? `, database ${fmt(median(databaseUs[0]!))}` : ''})`,
    );
    console.log(
      `B: ${fmt(sb.rate)} req/s on average, ${fmt(sb.cpuUs)} µs/req over all rounds (median of rounds ${fmt(sb.median)}, marginal ${fmt(mB)}${b.database ? `, database ${fmt(median(databaseUs[1]!))}` : ''})`,
    );
    console.log(
      `B/A: rate ${fmt((100 * sb.rate) / sa.rate, 1)}%, CPU per request ${fmt((100 * sb.cpuUs) / sa.cpuUs, 1)}%, marginal (medians) ${fmt((100 * mB) / mA, 1)}%; B spent less marginal CPU a request in ${ahead} of ${ROUNDS} rounds`,
    );
  } finally {
    for (const v of versions) {
      await v.server.stop();
      await v.cleanUp();
    }
  }
}

await main();
