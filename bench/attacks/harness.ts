import { readFileSync } from 'node:fs';
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildServer, type ChildServer } from '../child-server.js';
import { fleetProofBodies } from '../fleet-proofs.js';
import { createApiKey, fundWallet, type Credential } from '../provision.js';

/**
 * What every attack script shares: a registry in its own process on a fresh SQLite file, an
 * attacker and a victim wallet with a key each (the victim with one stored proof), and probes
 * that ask `/health` and the victim's proof from another address (127.0.0.2) every 50 ms while
 * the attack runs. Figures: p99 of each probe, and the server's peak resident memory (VmHWM).
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

/** One GET from 127.0.0.2 on a fresh connection: its latency in ms, or null when it failed. */
function probe(url: string, path: string, headers: Record<string, string>, timeoutMs = 5_000): Promise<number | null> {
  const { hostname, port } = new URL(url);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request({ host: hostname, port: Number(port), path, headers, localAddress: '127.0.0.2', agent: false, timeout: timeoutMs }, (res) => {
      res.resume();
      res.on('end', () => resolve(res.statusCode === 200 ? performance.now() - started : null));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
    req.end();
  });
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

/** Runs `attack` while probing every 50 ms; stops probing when it settles. */
export async function duringAttack(target: Target, attack: () => Promise<void>): Promise<AttackFigures> {
  const health: number[] = [];
  const reads: number[] = [];
  let failed = 0;
  let running = true;
  const victimHeaders = { authorization: `Bearer ${target.victim.key}`, 'x-wallet-address': target.victim.wallet };
  const probing = (async () => {
    while (running) {
      const [h, r] = await Promise.all([probe(target.server.url, '/health', {}), probe(target.server.url, `/v1/proofs/${target.victimProofId}`, victimHeaders)]);
      if (h === null) failed++;
      else health.push(h);
      if (r === null) failed++;
      else reads.push(r);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  })();
  try {
    await attack();
  } finally {
    running = false;
    await probing;
  }
  return { healthP50Ms: quantile(health, 0.5), healthP99Ms: p99(health), victimReadP99Ms: p99(reads), probes: health.length + reads.length + failed, failedProbes: failed, peakRssMb: peakRssMb(target.server.pid) };
}

export function report(name: string, figures: AttackFigures, extra: Record<string, unknown> = {}): void {
  const f = (n: number | null) => (n === null || Number.isNaN(n) ? 'n/a' : n.toFixed(1));
  console.log(
    `${name}: /health p50 ${f(figures.healthP50Ms)} ms, p99 ${f(figures.healthP99Ms)} ms, victim read p99 ${f(figures.victimReadP99Ms)} ms, ` +
      `${figures.failedProbes} of ${figures.probes} probes failed, peak RSS ${f(figures.peakRssMb)} MB` +
      (Object.keys(extra).length ? `; ${Object.entries(extra).map(([k, v]) => `${k} ${String(v)}`).join(', ')}` : ''),
  );
}
