import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { startChildServer, type ChildServer } from '../child-server.js';
import { fleetProofBodies } from '../fleet-proofs.js';
import { createApiKey, fundWallet, type Credential } from '../provision.js';
import type { ProbeResults } from './probes.js';

/**
 * What every attack script shares: a registry in its own process on a fresh SQLite file, an
 * attacker and a victim wallet with a key each (the victim with one stored proof), and probes
 * that ask `/health` and the victim's proof from another address (127.0.0.2) every 50 ms while
 * the attack runs, from a process of their own (probes.ts). Figures: p99 of each probe, and the server's peak resident memory (VmHWM).
 * Run from the repository root: `npx tsx bench/attacks/<attack>.ts`. Traffic goes to
 * 127.0.0.1 only, and every loop is bounded in count and time.
 */
export interface Target {
  readonly server: ChildServer;
  readonly attacker: Credential;
  readonly victim: Credential;
  readonly victimProofId: string;
  close(): Promise<void>;
}

export async function startTarget(env: Record<string, string> = {}): Promise<Target> {
  const dir = mkdtempSync(join(tmpdir(), 'proof-registry-attack-'));
  const databaseUrl = `sqlite:${join(dir, 'registry.sqlite')}`;
  const a = fundWallet(databaseUrl);
  const v = fundWallet(databaseUrl);
  const server = await startChildServer('./servers/registry-server.ts', { DATABASE_URL: databaseUrl, DATA_DIR: dir, LOG_LEVEL: 'error', ...env });
  const attacker = await createApiKey(server.url, a.wallet, a.secretKey);
  const victim = await createApiKey(server.url, v.wallet, v.secretKey);
  const stored = await fetch(`${server.url}/v1/proofs`, {
    method: 'POST',
    headers: { authorization: `Bearer ${victim.key}`, 'x-wallet-address': victim.wallet, 'content-type': 'application/json' },
    body: fleetProofBodies(1, 'attack-victim')[0]!,
  });
  const { proof_id: victimProofId } = (await stored.json()) as { proof_id: string };
  return {
    server,
    attacker,
    victim,
    victimProofId,
    close: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

const quantile = (xs: number[], q: number) => (xs.length === 0 ? NaN : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * q))]!);
const p99 = (xs: number[]) => quantile(xs, 0.99);

export function peakRssMb(pid: number | undefined): number | null {
  try {
    const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Number(kb) / 1024 : null;
  } catch {
    return null;
  }
}

export interface AttackFigures {
  readonly healthP50Ms: number;
  readonly healthP99Ms: number;
  readonly victimReadP99Ms: number;
  readonly probes: number;
  readonly failedProbes: number;
  readonly peakRssMb: number | null;
}

/** Runs `attack` while the probes (bench/attacks/probes.ts, a process of their own) run; stops them when it settles. */
export async function duringAttack(target: Target, attack: () => Promise<void>): Promise<AttackFigures> {
  const probes = spawn(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('./probes.ts', import.meta.url))], {
    env: {
      ...process.env,
      PROBE_URL: target.server.url,
      PROBE_PROOF_ID: target.victimProofId,
      PROBE_KEY: target.victim.key,
      PROBE_WALLET: target.victim.wallet,
    },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: probes.stdout! })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error('the probes exited early');
    return line.value;
  };
  await next(); // ready
  try {
    await attack();
  } finally {
    probes.stdin!.end();
  }
  const { health, reads, failed } = JSON.parse(await next()) as ProbeResults;
  return {
    healthP50Ms: quantile(health, 0.5),
    healthP99Ms: p99(health),
    victimReadP99Ms: p99(reads),
    probes: health.length + reads.length + failed,
    failedProbes: failed,
    peakRssMb: peakRssMb(target.server.pid),
  };
}

export function report(name: string, figures: AttackFigures, extra: Record<string, unknown> = {}): void {
  const f = (n: number | null) => (n === null || Number.isNaN(n) ? 'n/a' : n.toFixed(1));
  console.log(
    `${name}: /health p50 ${f(figures.healthP50Ms)} ms, p99 ${f(figures.healthP99Ms)} ms, victim read p99 ${f(figures.victimReadP99Ms)} ms, ` +
      `${figures.failedProbes} of ${figures.probes} probes failed, peak RSS ${f(figures.peakRssMb)} MB` +
      (Object.keys(extra).length
        ? `; ${Object.entries(extra)
            .map(([k, v]) => `${k} ${String(v)}`)
            .join(', ')}`
        : ''),
  );
}
