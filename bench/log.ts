import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { NodeSha256 } from '../src/adapters/crypto/node-sha256.js';
import { openDatabase, migrateLatest } from '../src/adapters/sql/index.js';
import { KnexCheckpointStore } from '../src/adapters/sql/knex-checkpoint-store.js';
import { KnexLogTileStore } from '../src/adapters/sql/knex-log-tile-store.js';
import { KnexSequencedLeaves } from '../src/adapters/sql/knex-sequenced-leaves.js';
import { LogTree } from '../src/application/log/log-tree.js';
import { IntegrateLeaves } from '../src/application/log/integrate-leaves.js';
import { ProveInclusion } from '../src/application/log/prove-inclusion.js';
import { startChildServer } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { interleaved, type Contender } from './interleaved.js';
import { createApiKey, fundWallet } from './provision.js';

/**
 * What the transparency log costs and how fast it answers:
 * - submissions with the log on and off (LOG_ENABLED), two registries on SQLite measured in
 *   turns, so the ratio is of one machine at one time;
 * - the inclusion proof's latency at a large tree, from the stored tiles (the use case, no HTTP);
 * - a checkpoint's latency: from a submission's 200 to the first published checkpoint covering it.
 */
const sha = new NodeSha256();
const percentile = (sorted: readonly number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

export async function benchLogOnOff(options: {
  rounds: number;
  sliceS: number;
  connections: number;
}): Promise<{ off: number; on: number; ratios: readonly number[] }> {
  const dirs = [mkdtempSync(join(tmpdir(), 'bench-log-off-')), mkdtempSync(join(tmpdir(), 'bench-log-on-'))];
  const servers = [];
  try {
    const contenders: Contender[] = [];
    for (const [i, dir] of dirs.entries()) {
      const databaseUrl = `sqlite:${join(dir, 'registry.sqlite')}`;
      const { wallet, secretKey } = fundWallet(databaseUrl);
      const server = await startChildServer('./servers/registry-server.ts', {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dir,
        LOG_LEVEL: 'warn',
        RATE_LIMIT_PER_MIN: '1000000',
        WALLET_RATE_LIMIT_PER_MIN: '1000000',
        LOG_ENABLED: i === 0 ? 'false' : 'true',
      });
      servers.push(server);
      const { key } = await createApiKey(server.url, wallet, secretKey);
      const bodies = fleetProofBodies(Math.ceil(options.rounds * options.sliceS * 6_000), `bench-log-${i}`);
      contenders.push({ server, path: '/v1/proofs', headers: { authorization: `Bearer ${key}`, 'x-wallet-address': wallet }, bodies, cursor: { next: 0 } });
    }
    const turns = await interleaved([contenders[0]!, contenders[1]!], { rounds: options.rounds, sliceS: options.sliceS, connections: options.connections });
    // A refused request (a 429 from a wallet's limit, say) costs the server next to nothing: a rate with any in it is not a submission rate.
    for (const [i, f] of turns.figures.entries()) {
      if (f.non2xx + f.errors > 0)
        throw new Error(`the log ${i === 0 ? 'off' : 'on'} server answered ${f.non2xx} non-2xx and ${f.errors} errors of ${f.total} submissions`);
    }
    return { off: turns.figures[0]!.requestsPerSec, on: turns.figures[1]!.requestsPerSec, ratios: turns.roundRatios };
  } finally {
    for (const s of servers) await s.stop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }
}

/** A log of `size` leaves on SQLite (leaves written in batches of 10,000, integrated in the service's steps), then inclusion proofs of random leaves. */
export async function benchInclusion(size: number, proofs: number): Promise<{ buildS: number; p50Ms: number; p99Ms: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-log-tree-'));
  const db = await openDatabase(`sqlite:${join(dir, 'log.sqlite')}`);
  try {
    await migrateLatest(db);
    const started = performance.now();
    for (let start = 0; start < size; start += 10_000) {
      const rows = Array.from({ length: Math.min(10_000, size - start) }, (_, k) => ({
        leaf_index: start + k,
        proof_id: Buffer.from(sha.digest(Buffer.from(`leaf ${start + k}`))).toString('hex'),
      }));
      await db.knex.transaction(async (trx) => {
        for (let i = 0; i < rows.length; i += 400) await trx('log_leaves').insert(rows.slice(i, i + 400));
      });
    }
    const tiles = new KnexLogTileStore(db);
    const leaves = new KnexSequencedLeaves(db);
    const integrate = new IntegrateLeaves(tiles, leaves, sha);
    while ((await tiles.integratedSize()) < size) await integrate.execute();
    const checkpoints = new KnexCheckpointStore(db);
    const tree = new LogTree(tiles, sha);
    await checkpoints.publish({ size, rootHash: await tree.root(size), note: 'bench', publishedAtMs: Date.now() });
    const buildS = (performance.now() - started) / 1000;
    const prove = new ProveInclusion(leaves, checkpoints, tree, sha);
    const times: number[] = [];
    for (let i = 0; i < proofs; i++) {
      const index = Math.floor(Math.random() * size);
      const leaf = sha.digest(Buffer.from(`leaf ${index}`));
      const t0 = performance.now();
      const answer = await prove.execute({ leaf });
      times.push(performance.now() - t0);
      if (answer._tag !== 'Right') throw new Error('no inclusion proof');
    }
    times.sort((a, b) => a - b);
    return { buildS, p50Ms: percentile(times, 50), p99Ms: percentile(times, 99) };
  } finally {
    await db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Submissions at a steady pace; for each, the time from its 200 to the first checkpoint (polled every 10 ms) that covers it. */
export async function benchCheckpointLatency(count: number, perSecond: number): Promise<{ p50Ms: number; p99Ms: number; maxMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-log-latency-'));
  const databaseUrl = `sqlite:${join(dir, 'registry.sqlite')}`;
  const { wallet, secretKey } = fundWallet(databaseUrl);
  const server = await startChildServer('./servers/registry-server.ts', {
    DATABASE_URL: databaseUrl,
    DATA_DIR: dir,
    LOG_LEVEL: 'warn',
    RATE_LIMIT_PER_MIN: '1000000',
    WALLET_RATE_LIMIT_PER_MIN: '1000000',
  });
  try {
    const { key } = await createApiKey(server.url, wallet, secretKey);
    const headers = { authorization: `Bearer ${key}`, 'x-wallet-address': wallet, 'content-type': 'application/json' };
    const bodies = fleetProofBodies(count, 'bench-log-latency');
    const acked: Array<{ index: number; atMs: number }> = [];
    let size = 0;
    const covered = new Map<number, number>();
    let polling = true;
    const poller = (async () => {
      while (polling || acked.some((a) => !covered.has(a.index))) {
        const note = await (await fetch(`${server.url}/v1/log/checkpoint`)).text();
        const now = performance.now();
        const newSize = Number(note.split('\n')[1]);
        if (newSize > size) {
          size = newSize;
          for (const a of acked) if (a.index < size && !covered.has(a.index)) covered.set(a.index, now - a.atMs);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    })();
    const sends = bodies.map(async (body, i) => {
      await new Promise((resolve) => setTimeout(resolve, (i * 1000) / perSecond));
      const res = await fetch(`${server.url}/v1/proofs`, { method: 'POST', headers, body });
      if (!res.ok) throw new Error(`a submission was answered ${res.status}: ${await res.text()}`);
      const reply = (await res.json()) as { log_index: number };
      acked.push({ index: reply.log_index, atMs: performance.now() });
    });
    await Promise.all(sends);
    polling = false;
    await poller;
    const times = [...covered.values()].sort((a, b) => a - b);
    return { p50Ms: percentile(times, 50), p99Ms: percentile(times, 99), maxMs: times[times.length - 1]! };
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchLog(options: { rounds: number; sliceS: number; connections: number; treeSize: number }): Promise<void> {
  const onOff = await benchLogOnOff(options);
  const latency = await benchCheckpointLatency(400, 40);
  const inclusion = await benchInclusion(options.treeSize, 2_000);
  console.log('\n| transparency log (SQLite) | figure |');
  console.log('| --- | ---: |');
  console.log(`| submissions/s, log off (LOG_ENABLED=false), ${options.connections} connections | ${fmt(onOff.off, 0)} |`);
  console.log(`| submissions/s, log on, in turns with it | ${fmt(onOff.on, 0)} |`);
  console.log(`| log on vs off | ${fmt((100 * onOff.on) / onOff.off)}% (rounds ${onOff.ratios.map((r) => `${fmt(100 * r)}%`).join(', ')}) |`);
  console.log(
    `| checkpoint latency, 200 → covered, p50 / p99 / max (40 proofs/s, LOG_CHECKPOINT_INTERVAL_MS=1000) | ${fmt(latency.p50Ms, 0)} / ${fmt(latency.p99Ms, 0)} / ${fmt(latency.maxMs, 0)} ms |`,
  );
  console.log(
    `| inclusion proof at ${options.treeSize.toLocaleString('en-US')} leaves, from the stored tiles, p50 / p99 | ${fmt(inclusion.p50Ms, 2)} / ${fmt(inclusion.p99Ms, 2)} ms (tree built and integrated in ${fmt(inclusion.buildS, 0)} s) |`,
  );
}

if (process.argv[1]?.endsWith('log.ts')) {
  const treeSize = Number(process.env.BENCH_LOG_TREE ?? 1_000_000);
  await benchLog({ rounds: Number(process.env.BENCH_LOG_ROUNDS ?? 4), sliceS: Number(process.env.BENCH_LOG_SLICE_S ?? 3), connections: 16, treeSize });
}
