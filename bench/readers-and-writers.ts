import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { startChildServer } from './child-server.js';
import { fleetProofBodies } from './fleet-proofs.js';
import { load } from './http-load.js';
import { adminQueries, createApiKey, fundWallet, PG_ADMIN_URL } from './provision.js';

/**
 * Submissions to the registry, alone and beside 8 clients reading proof lists as fast as they
 * can: on PostgreSQL with the read pool apart from the write connections (the default) and
 * with reads and writes on one pool (DATABASE_READ_POOL_SIZE=0), and on SQLite; with the
 * default read slots (READ_CONCURRENCY) and with reads as good as unbounded. Each
 * configuration runs its two loads in alternating slices, so their ratio is taken under the
 * same machine load. `npx tsx bench/readers-and-writers.ts` runs it alone.
 */
const SLICE_S = Number(process.env.BENCH_SLICE_S ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const WRITERS = 16;
const READERS = 8;
const DB = 'proof_registry_bench_rw';

function readers(url: string, headers: Record<string, string>, durationS: number): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(
      { url, connections: READERS, duration: durationS, requests: [{ method: 'GET', path: '/v1/proofs?limit=200', headers }] },
      (err: unknown, r: autocannon.Result) => (err ? reject(err instanceof Error ? err : new Error(String(err))) : resolve(r)),
    );
  });
}

export interface ReadWriteFigures {
  readonly database: string;
  readonly alone: number;
  readonly withReaders: number;
  readonly readsPerSec: number;
  readonly refusedReads: number;
}

/** A database of the bench's own for one configuration, and what the server needs to use it. */
interface Setup {
  readonly label: string;
  readonly open: () => Promise<{ databaseUrl: string; env: Record<string, string>; drop: () => Promise<void> }>;
}

/** READ_CONCURRENCY as the server runs with it: the default, or as good as no bound. */
const UNBOUNDED = '1024';
const slotsLabel = (readConcurrency: string | undefined) => (readConcurrency === UNBOUNDED ? 'reads unbounded' : `${readConcurrency ?? 'default'} read slots`);

const postgres = (readPoolSize: string, readConcurrency?: string): Setup => ({
  label: `PostgreSQL, ${readPoolSize === '0' ? 'one pool for reads and writes' : `a read pool of ${readPoolSize}`}, ${slotsLabel(readConcurrency)}`,
  open: async () => {
    await adminQueries(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`, `CREATE DATABASE ${DB}`);
    const url = new URL(PG_ADMIN_URL);
    url.pathname = `/${DB}`;
    return {
      databaseUrl: url.toString(),
      env: { DATABASE_READ_POOL_SIZE: readPoolSize, ...(readConcurrency ? { READ_CONCURRENCY: readConcurrency } : {}) },
      drop: () => adminQueries(`DROP DATABASE IF EXISTS ${DB} WITH (FORCE)`),
    };
  },
});

const sqlite = (readConcurrency?: string): Setup => ({
  label: `SQLite, ${slotsLabel(readConcurrency)}`,
  open: () => {
    const dir = mkdtempSync(join(tmpdir(), 'proof-registry-rw-'));
    return Promise.resolve({
      databaseUrl: `sqlite:${join(dir, 'registry.sqlite')}`,
      env: { DATA_DIR: dir, ...(readConcurrency ? { READ_CONCURRENCY: readConcurrency } : {}) },
      drop: () => Promise.resolve(rmSync(dir, { recursive: true, force: true })),
    });
  },
});

async function measure(setup: Setup, bodies: string[], cursor: { next: number }): Promise<ReadWriteFigures> {
  const { databaseUrl, env, drop } = await setup.open();
  const { wallet, secretKey } = fundWallet(databaseUrl);
  const server = await startChildServer('./servers/registry-server.ts', {
    DATABASE_URL: databaseUrl,
    LOG_LEVEL: 'error',
    JWT_SECRET: 'bench-readers-and-writers-secret-0123456789',
    RATE_LIMIT_PER_MIN: '1000000',
    WALLET_RATE_LIMIT_PER_MIN: '1000000',
    ...env,
  });
  try {
    const { key } = await createApiKey(server.url, wallet, secretKey);
    const headers = { authorization: `Bearer ${key}`, 'x-wallet-address': wallet };
    // Something to read: the first proofs, and a warm-up.
    await load({ url: server.url, path: '/v1/proofs', headers, bodies, cursor, connections: WRITERS, durationS: 2 });
    const alone: number[] = [];
    const mixed: number[] = [];
    const reads: number[] = [];
    let refused = 0;
    for (let round = 0; round < ROUNDS; round++) {
      alone.push((await load({ url: server.url, path: '/v1/proofs', headers, bodies, cursor, connections: WRITERS, durationS: SLICE_S })).requestsPerSec);
      const [writes, read] = await Promise.all([
        load({ url: server.url, path: '/v1/proofs', headers, bodies, cursor, connections: WRITERS, durationS: SLICE_S }),
        readers(server.url, headers, SLICE_S),
      ]);
      mixed.push(writes.requestsPerSec);
      // Reads answered: a refused one (503 busy, should the queue fill) is not a read served.
      reads.push((read.requests.total - read.non2xx) / read.duration);
      refused += read.non2xx;
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    return { database: setup.label, alone: mean(alone), withReaders: mean(mixed), readsPerSec: mean(reads), refusedReads: refused };
  } finally {
    await server.stop();
    await drop();
  }
}

export async function benchReadersAndWriters(): Promise<ReadWriteFigures[]> {
  const bodies = fleetProofBodies(Number(process.env.BENCH_RW_PROOFS ?? 40_000), 'bench-rw');
  const setups = [postgres('8'), postgres('8', UNBOUNDED), postgres('0'), sqlite(), sqlite(UNBOUNDED)];
  const figures: ReadWriteFigures[] = [];
  // Each setup has a database of its own, so each sends the same bodies from the first.
  for (const setup of setups) figures.push(await measure(setup, bodies, { next: 0 }));
  return figures;
}

export function printReadersAndWriters(figures: readonly ReadWriteFigures[]): void {
  console.log(
    `\n| ${WRITERS} submitting clients | submissions/s with 0 readers | with ${READERS} readers | ratio | reads/s | reads refused |\n| --- | --- | --- | --- | --- | --- |`,
  );
  for (const f of figures) {
    console.log(
      `| ${f.database} | ${f.alone.toFixed(0)} | ${f.withReaders.toFixed(0)} | ${(f.withReaders / f.alone).toFixed(2)} | ${f.readsPerSec.toFixed(0)} | ${f.refusedReads} |`,
    );
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  printReadersAndWriters(await benchReadersAndWriters());
}
