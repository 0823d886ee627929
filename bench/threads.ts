import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, type ChildServer } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { load, type LoadFigures } from './http-load.js';
import { createApiKey, fundWallet } from './provision.js';

/**
 * Where a maximum-rate run of POST /v1/proofs spends its time, thread by thread (Linux only):
 *
 *   npx tsx bench/threads.ts                      # the registry on SQLite, then the ceiling
 *   SERVERS=registry D=20 CONNECTIONS=64 npx tsx bench/threads.ts
 *   SERVERS=registry,durable CONNECTIONS=64 npx tsx bench/threads.ts   # against the durable ceiling on SQLite
 *
 * For each thread of the server process: the share of a core it ran, its CPU per request, and
 * how long it waited in the run queue for a core (from /proc/<pid>/task/<tid>/schedstat), then
 * how the machine's time split (user, system, softirq, idle, steal) and the server's file I/O
 * per request. The figures `npm run bench` gives say how fast; these say why: a thread that
 * runs near 100% is the limit, and a thread that waits for a core while the machine has idle
 * time is held up by the scheduler, not by work.
 *
 * Node does not name its threads, so only the main event loop (whose id is the process id) is
 * labelled; the verify workers, the writer thread, libuv's pool (SQLite's work) and V8's helpers
 * show by their shares.
 */
const DURATION_S = Number(process.env.D ?? 10);
const CONNECTIONS = Number(process.env.CONNECTIONS ?? 32);
const SERVERS = (process.env.SERVERS ?? 'registry,ceiling').split(',');

interface ThreadTimes {
  /** Time on a core, waiting in the run queue (seconds), and how many times it got a core. */
  readonly runS: number;
  readonly waitS: number;
  readonly slices: number;
  /** Its niceness (HELPER_THREAD_NICE puts every thread but the event loop below it). */
  readonly nice: number;
}

function threadTimes(pid: number): Map<number, ThreadTimes> {
  const times = new Map<number, ThreadTimes>();
  for (const tid of readdirSync(`/proc/${pid}/task`).map(Number)) {
    try {
      const [run, wait, slices] = readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').trim().split(' ').map(Number);
      // Field 19 of stat, counted after the command name (in parentheses, and it may hold spaces).
      const stat = readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8');
      const nice = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      times.set(tid, { runS: run! / 1e9, waitS: wait! / 1e9, slices: slices!, nice });
    } catch {
      // The thread ended between listing and reading.
    }
  }
  return times;
}

const CPU_FIELDS = ['user', 'nice', 'system', 'idle', 'iowait', 'irq', 'softirq', 'steal'] as const;
const machineTicks = () =>
  readFileSync('/proc/stat', 'utf8')
    .split('\n')[0]!
    .trim()
    .split(/\s+/)
    .slice(1, 1 + CPU_FIELDS.length)
    .map(Number);
const processIo = (pid: number) =>
  Object.fromEntries(
    readFileSync(`/proc/${pid}/io`, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split(': '))
      .map(([key, value]) => [key!, Number(value)]),
  ) as Record<string, number>;

async function start(which: string, dir: string): Promise<{ server: ChildServer; path: string; headers: Record<string, string> }> {
  if (which === 'ceiling') return { server: await startChildServer('./servers/ceiling-server.ts'), path: '/', headers: {} };
  if (which === 'durable')
    return {
      server: await startChildServer('./servers/durable-ceiling-server.ts', { DURABLE_DATABASE_URL: `sqlite:${join(dir, 'durable.sqlite')}` }),
      path: '/',
      headers: {},
    };
  if (which !== 'registry') throw new Error(`SERVERS takes registry, ceiling and durable, not ${which}`);
  const databaseUrl = `sqlite:${join(dir, 'registry.sqlite')}`;
  const { wallet, secretKey } = fundWallet(databaseUrl);
  const server = await startChildServer('./servers/registry-server.ts', {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MIN: '1000000',
    WALLET_RATE_LIMIT_PER_MIN: '1000000',
  });
  const { key } = await createApiKey(server.url, wallet, secretKey);
  return { server, path: '/v1/proofs', headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet } };
}

function report(
  which: string,
  figures: LoadFigures,
  before: Map<number, ThreadTimes>,
  after: Map<number, ThreadTimes>,
  pid: number,
  ticks: number[],
  io: Record<string, number>,
): void {
  const perRequest = (seconds: number) => ((seconds * 1e6) / figures.total).toFixed(0);
  console.log(
    `\n${which}: ${Math.round(figures.requestsPerSec).toLocaleString('en-US')} req/s, p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, ${figures.non2xx + figures.errors} non-2xx or errors`,
  );
  console.log('| thread | nice | share of a core | CPU µs/req | waiting for a core | waits/s | mean wait µs |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const rows = [...after].map(([tid, t]) => {
    const b = before.get(tid) ?? { runS: 0, waitS: 0, slices: 0 };
    return { tid, nice: t.nice, cpu: t.runS - b.runS, wait: t.waitS - b.waitS, slices: t.slices - b.slices };
  });
  let total = 0;
  for (const r of rows.filter((r) => r.cpu > 0.02).sort((a, b) => b.cpu - a.cpu)) {
    total += r.cpu;
    const label = r.tid === pid ? 'main event loop' : `thread ${r.tid}`;
    console.log(
      `| ${label} | ${r.nice} | ${((100 * r.cpu) / DURATION_S).toFixed(0)}% | ${perRequest(r.cpu)} | ${((100 * r.wait) / DURATION_S).toFixed(0)}% of the time | ${(r.slices / DURATION_S).toFixed(0)} | ${((r.wait * 1e6) / Math.max(1, r.slices)).toFixed(0)} |`,
    );
  }
  console.log(`| all threads | | ${((100 * total) / DURATION_S).toFixed(0)}% | ${perRequest(total)} | | | |`);
  const sum = ticks.reduce((a, b) => a + b, 0);
  console.log(`machine: ${CPU_FIELDS.map((name, i) => `${name} ${((100 * ticks[i]!) / sum).toFixed(1)}%`).join(', ')}`);
  console.log(
    `server file and socket I/O per request: ${(io.wchar! / figures.total / 1024).toFixed(1)} KiB written in ${(io.syscw! / figures.total).toFixed(1)} calls, ${(io.rchar! / figures.total / 1024).toFixed(1)} KiB read in ${(io.syscr! / figures.total).toFixed(1)} calls`,
  );
}

console.log(`${DURATION_S} s per run, ${CONNECTIONS} connections, after a 2 s warm-up`);
// Warm-up proofs first: each server's warm-up is older (by created_at) than the measured run's.
const warmUps = SERVERS.map(() => fleetProofBodies(16_000, 'threads-warm-up'));
const bodies = fleetProofBodies(DURATION_S * 8_000, 'threads');
for (const [k, which] of SERVERS.entries()) {
  const dir = mkdtempSync(join(tmpdir(), 'registry-threads-'));
  const { server, path, headers } = await start(which, dir);
  try {
    const pid = server.pid!;
    const reuseBodies = which === 'ceiling';
    await load({ url: server.url, path, headers, bodies: warmUps[k]!, reuseBodies, connections: CONNECTIONS, durationS: 2 });
    const [threads0, ticks0, io0] = [threadTimes(pid), machineTicks(), processIo(pid)];
    const figures = await load({ url: server.url, path, headers, bodies, reuseBodies, connections: CONNECTIONS, durationS: DURATION_S });
    const [threads1, ticks1, io1] = [threadTimes(pid), machineTicks(), processIo(pid)];
    const io = Object.fromEntries(Object.keys(io1).map((k) => [k, io1[k]! - io0[k]!]));
    report(
      which,
      figures,
      threads0,
      threads1,
      pid,
      ticks1.map((t, i) => t - ticks0[i]!),
      io,
    );
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
