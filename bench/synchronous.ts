import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { startChildServer, type ChildServer } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { interleaved, type Contender } from './interleaved.js';
import { createApiKey, fundWallet } from './provision.js';

/**
 * What durable acknowledgements cost on SQLite: two registries, one with the default
 * SQLITE_SYNCHRONOUS=full (the WAL synced at every group commit, before any proof in it is
 * answered) and one with `normal` (synced only at checkpoints), at their maximum rate in turns,
 * so the ratio is of one machine at one time.
 */
export interface SynchronousFigures {
  readonly full: { readonly requestsPerSec: number; readonly p99Ms: number; readonly serverCpuUs: number | null };
  readonly normal: { readonly requestsPerSec: number; readonly p99Ms: number; readonly serverCpuUs: number | null };
  /** Each round's `full` rate as a share of the `normal` one. */
  readonly ratios: readonly number[];
}

export async function benchSynchronous(o: { rounds: number; sliceS: number; connections: number }): Promise<SynchronousFigures> {
  const modes = ['normal', 'full'] as const;
  const dirs = modes.map((mode) => mkdtempSync(join(tmpdir(), `bench-synchronous-${mode}-`)));
  const servers: ChildServer[] = [];
  try {
    const contenders: Contender[] = [];
    for (const [i, mode] of modes.entries()) {
      const dir = dirs[i]!;
      const databaseUrl = `sqlite:${join(dir, 'registry.sqlite')}`;
      const { wallet, secretKey } = fundWallet(databaseUrl);
      const server = await startChildServer('./servers/registry-server.ts', {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dir,
        LOG_LEVEL: 'error',
        RATE_LIMIT_PER_MIN: '1000000',
        WALLET_RATE_LIMIT_PER_MIN: '1000000',
        SQLITE_SYNCHRONOUS: mode,
      });
      servers.push(server);
      const { key } = await createApiKey(server.url, wallet, secretKey);
      const bodies = fleetProofBodies(Math.ceil(o.rounds * o.sliceS * 6_000), `bench-synchronous-${mode}`);
      contenders.push({ server, path: '/v1/proofs', headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet }, bodies, cursor: { next: 0 } });
    }
    const turns = await interleaved([contenders[0]!, contenders[1]!], o);
    for (const [i, f] of turns.figures.entries()) {
      if (f.non2xx + f.errors > 0) throw new Error(`the ${modes[i]} server answered ${f.non2xx} non-2xx and ${f.errors} errors of ${f.total} submissions`);
    }
    const pick = (i: number) => ({
      requestsPerSec: turns.figures[i]!.requestsPerSec,
      p99Ms: turns.figures[i]!.p99Ms,
      serverCpuUs: turns.figures[i]!.serverCpuUs,
    });
    return { normal: pick(0), full: pick(1), ratios: turns.roundRatios };
  } finally {
    for (const s of servers) await s.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

const fmt = (n: number, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const pct = (r: number) => `${fmt(100 * r, 1)}%`;

export function printSynchronous(f: SynchronousFigures, o: { rounds: number; sliceS: number; connections: number }): void {
  console.log(
    `\n| SQLite, acknowledged once on disk or not, ${o.connections} connections, ${o.rounds} rounds of ${fmt(o.sliceS, 1)} s in turns | req/s | p99 ms | server CPU µs/req |`,
  );
  console.log('| --- | ---: | ---: | ---: |');
  const cpu = (us: number | null) => (us === null ? 'n/a' : fmt(us));
  console.log(
    `| SQLITE_SYNCHRONOUS=normal: synced at checkpoints | ${fmt(f.normal.requestsPerSec)} | ${fmt(f.normal.p99Ms, 1)} | ${cpu(f.normal.serverCpuUs)} |`,
  );
  console.log(
    `| SQLITE_SYNCHRONOUS=full (default): synced at each group commit | ${fmt(f.full.requestsPerSec)} | ${fmt(f.full.p99Ms, 1)} | ${cpu(f.full.serverCpuUs)} |`,
  );
  console.log(`\nfull vs normal: ${pct(f.full.requestsPerSec / f.normal.requestsPerSec)} (rounds ${f.ratios.map(pct).join(', ')})`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const connections = Number(process.env.BENCH_CONNECTIONS ?? 64);
  const rounds = Number(process.env.BENCH_ROUNDS ?? 5);
  const sliceS = Number(process.env.BENCH_DURATION_S ?? 10) / rounds;
  const o = { rounds, sliceS, connections };
  printSynchronous(await benchSynchronous(o), o);
}
